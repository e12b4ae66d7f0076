// The endpoint file of a store: serve.json beside it, written by the `weft serve` that owns the
// store and read by a terminal's command that wants to hand its command to that server. The one
// place that says where the file is, how it is written (readable by the user alone) and when a
// reader may trust it: the user's own file, readable by no one else, naming a live process and a
// loopback address (a file someone else planted would receive the user's inputs).
import { chmodSync, lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ServeEndpoint } from '../../shared/api/serve-endpoint.ts';

/** serve.json beside the store at `storePath`. */
export function endpointFileOf(storePath: string): string {
  return join(dirname(storePath), 'serve.json');
}

/** Writes serve.json beside the store, mode 0600 (also when the file was there with another mode); answers its path. */
export function writeEndpointFile(storePath: string, endpoint: ServeEndpoint): string {
  const file = endpointFileOf(storePath);
  writeFileSync(file, `${JSON.stringify(ServeEndpoint.parse(endpoint))}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/** Removes serve.json beside the store, if it is there. */
export function removeEndpointFile(storePath: string): void {
  rmSync(endpointFileOf(storePath), { force: true });
}

/**
 * serve.json beside the store, when it is the user's own file, readable by no one else, and names
 * a live process on 127.0.0.1; undefined otherwise (no file, a stale one, or one not to be trusted).
 */
export function readEndpointFile(storePath: string): ServeEndpoint | undefined {
  const file = endpointFileOf(storePath);
  try {
    const stats = lstatSync(file);
    if (!stats.isFile()) return undefined;
    const uid = process.getuid?.();
    if (uid !== undefined && (stats.uid !== uid || (stats.mode & 0o077) !== 0)) return undefined;
    const parsed = ServeEndpoint.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return undefined;
    process.kill(parsed.data.pid, 0); // throws when there is no such process (of this user): the file is stale
    return parsed.data;
  } catch {
    return undefined;
  }
}
