// Waits until a starting CLI process has opened the store and written to it (taking the engine
// lease is its first write), by watching the SQLite file and its write-ahead log change. Starting
// `weft` costs most of a second (tsx compiles the engine), so a kill delay counted from the spawn
// would mostly land before the engine exists; counted from the first write, it lands mid-run.
import { statSync } from 'node:fs';
import { WAIT_BOUND_MS } from '../wait-until.ts';

function signature(dbPath: string): string {
  const part = (path: string): string => {
    try {
      const s = statSync(path);
      return `${s.size}@${s.mtimeMs}`;
    } catch {
      return '-';
    }
  };
  return `${part(dbPath)}|${part(`${dbPath}-wal`)}`;
}

/** Resolves true on the first change of the store files after the call, false if `gone` resolves first. */
export async function storeWritten(dbPath: string, gone: Promise<unknown>, pollMs = 3, timeoutMs = WAIT_BOUND_MS): Promise<boolean> {
  const before = signature(dbPath);
  let ended = false;
  void gone.then(() => (ended = true));
  const start = Date.now();
  while (!ended) {
    if (signature(dbPath) !== before) return true;
    if (Date.now() - start > timeoutMs) throw new Error(`the CLI did not write to ${dbPath} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return false;
}
