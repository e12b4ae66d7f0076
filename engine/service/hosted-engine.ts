// While `weft serve` runs, it owns its store: it holds the lease and drives the runs. A CLI
// command that changes state is then handed to it (forward-to-server.ts) and runs inside the
// server's process, on the server's engine, through this registry: openEngineSession finds the
// engine hosted for its store here instead of opening the file and waiting for the lease. The
// command's code, output and exit codes are exactly those of a command run on its own.
import type { Engine } from '../runtime/engine.ts';
import type { Store } from '../store/store.ts';

export interface HostedEngine {
  store: Store;
  engine: Engine;
}

const hosted = new Map<string, HostedEngine>();

/** Registers the engine that owns the store at `dbPath` (an absolute path); returns the unregister. */
export function hostEngine(dbPath: string, host: HostedEngine): () => void {
  hosted.set(dbPath, host);
  return () => {
    if (hosted.get(dbPath) === host) hosted.delete(dbPath);
  };
}

export function hostedEngine(dbPath: string): HostedEngine | undefined {
  return hosted.get(dbPath);
}
