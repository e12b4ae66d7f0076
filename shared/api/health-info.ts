// `GET /api/health`: which engine answers, for which workspace and store, and for whom; on a
// PostgreSQL store shared by several engines, which of them are alive (the app's header shows it).
import { z } from 'zod';

/** The kinds of store (docs/postgres.md). */
export const STORE_KINDS = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** An engine sharing a PostgreSQL store, alive (its heartbeat within its ttl). */
export const LiveWorker = z.strictObject({
  /** Unique per registration: `<role>-<host>-<pid>-<random>`. */
  id: z.string().min(1),
  /** `worker` (weft worker), `serve` (weft serve), or `command` (a CLI command driving runs for a while). */
  role: z.string().min(1),
  host: z.string(),
  pid: z.number().int(),
});
export type LiveWorker = z.infer<typeof LiveWorker>;

/** The engines alive on a PostgreSQL store, oldest first. */
export const LiveWorkers = z.strictObject({
  alive: z.number().int().nonnegative(),
  list: z.array(LiveWorker),
});
export type LiveWorkers = z.infer<typeof LiveWorkers>;

/**
 * @example
 * HealthInfo.parse({ version: '0.1.0', workspace: '/home/ana/flows', store: '/home/ana/flows/.weft/weft.db', storeKind: 'sqlite' });
 * HealthInfo.parse({ version: '0.1.0', workspace: '/srv/flows', store: 'PostgreSQL database "weft" on db.internal:5432 as weft, schema team', storeKind: 'postgres',
 *   workers: { alive: 1, list: [{ id: 'worker-db1-4242-1a2b3c4d', role: 'worker', host: 'db1', pid: 4242 }] } });
 */
export const HealthInfo = z.strictObject({
  /** Weft's version, as `weft --version` prints it. */
  version: z.string().min(1),
  /** The workspace folder, absolute. */
  workspace: z.string().min(1),
  /** The store: its file, absolute; or the PostgreSQL database, host, user and schema, never the password. */
  store: z.string().min(1),
  /** Which store it is. Absent from older servers (SQLite only). */
  storeKind: z.enum(STORE_KINDS).optional(),
  /** On PostgreSQL only: the engines alive on the store. */
  workers: LiveWorkers.optional(),
  /**
   * Who acts when a command names nobody: $WEFT_USER, else $USER, else the OS user of the server
   * (the `by` the CLI records). The app offers it as the default `by`. Absent from older servers.
   */
  user: z.string().min(1).optional(),
});
export type HealthInfo = z.infer<typeof HealthInfo>;
