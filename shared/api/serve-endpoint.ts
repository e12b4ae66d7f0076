// serve.json: where the `weft serve` that owns a store listens, written beside the store (mode
// 0600) when the server starts and removed when it stops. The server writes it and the CLI reads
// it to hand its commands to that server (docs/server.md); both go through this one schema, so a
// field cannot be written one way and read another.
import { z } from 'zod';

/** The only address a server listens on: 127.0.0.1 and a port. */
const LOOPBACK_URL = /^http:\/\/127\.0\.0\.1:(\d{1,5})$/;

/**
 * The content of serve.json. Fields added by a later weft are let through (a reader takes what it
 * knows); a file that lacks one of these, or names another host, is not an endpoint.
 *
 * @example
 * ServeEndpoint.parse({ url: 'http://127.0.0.1:43117', port: 43117, token: 'Xy…', pid: 4242, workspace: '/home/ana/flows' });
 */
export const ServeEndpoint = z
  .object({
    /** `http://127.0.0.1:PORT`, the address the API and the app are served on. */
    url: z.string().regex(LOOPBACK_URL, 'the url must be http://127.0.0.1:PORT'),
    port: z.number().int().min(1).max(65535),
    /** The bearer token of this start of the server. */
    token: z.string().min(1),
    /** The server's process: a file naming a process that is gone is stale. */
    pid: z.number().int().positive(),
    /** The folder whose workflow files the server shows and runs. */
    workspace: z.string().min(1),
  })
  .refine((e) => LOOPBACK_URL.exec(e.url)?.[1] === String(e.port), { message: 'the port must be the url’s port', path: ['port'] });

export type ServeEndpoint = z.infer<typeof ServeEndpoint>;
