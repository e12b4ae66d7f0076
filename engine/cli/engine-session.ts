// A CLI command that schedules runs owns the store while it works: it opens the store, takes the
// engine lease (refusing while another live engine holds it; a dead owner's lease is taken over),
// keeps the lease fresh, and gives it back on close. Read-only commands open the store without it,
// read-only. Only `weft run` creates a store: every other command needs one there already.
//
// The engine, its executors and SQLite are imported when a session opens, not when the CLI starts:
// `weft --version`, `weft runs` and `weft validate` do not pay for what they never use.
import type { Engine } from '../runtime/engine.ts';
import { StoreError } from '../store/store-error.ts';
import { systemClock, systemRandom } from '../runtime/clock.ts';
import type { Store } from '../store/store.ts';
import type { CliIo } from './cli-io.ts';
import { withUserErrors } from './cli-errors.ts';
import { storePath } from './store-path.ts';
import { printRunOutcome } from './run-outcome.ts';

export interface EngineSession {
  store: Store;
  engine: Engine;
  close(): void;
}

const HEARTBEAT_MS = 5_000;

/** How long a command waits for another live engine to give the store back ($WEFT_LEASE_WAIT_MS). */
const leaseWaitMs = (): number => {
  const v = Number(process.env['WEFT_LEASE_WAIT_MS'] ?? 10_000);
  return Number.isFinite(v) && v >= 0 ? v : 10_000;
};

/**
 * Opens the store and takes its lease, waiting a while for a live owner to finish (a command run
 * while another one drives the store); a dead or stale owner's lease is taken over at once.
 */
export async function openEngineSession(dbPath: string, owner: string, mode: 'create' | 'write' = 'write'): Promise<EngineSession> {
  const [{ Engine }, { defaultExecutors }, { Lease }, { openDatabase }, { Store }] = await Promise.all([
    import('../runtime/engine.ts'),
    import('../executors/default-executors.ts'),
    import('../store/lease.ts'),
    import('../store/open-database.ts'),
    import('../store/store.ts'),
  ]);
  const db = openDatabase(dbPath, { mode });
  const store = new Store(db);
  const lease = new Lease(db, owner, systemClock.now);
  const giveUpAt = Date.now() + leaseWaitMs();
  for (;;) {
    try {
      lease.acquire();
      break;
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'locked') || Date.now() >= giveUpAt) {
        db.close();
        throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const heartbeat = setInterval(() => lease.heartbeat(), HEARTBEAT_MS);
  heartbeat.unref();
  let fatal: unknown;
  const engine = new Engine({
    store,
    clock: systemClock,
    random: systemRandom,
    executors: defaultExecutors(),
    onFatal: (e) => {
      fatal = e;
    },
  });
  return {
    store,
    engine,
    close() {
      clearInterval(heartbeat);
      engine.close();
      if (fatal === undefined) engine.flush();
      lease.release();
      db.close();
      if (fatal !== undefined) throw fatal;
    },
  };
}

/** For commands that only read: no lease, a store that must already exist, opened read-only. */
export async function openReadOnlyStore(dbPath: string): Promise<{ store: Store; close(): void }> {
  const [{ openDatabase }, { Store }] = await Promise.all([import('../store/open-database.ts'), import('../store/store.ts')]);
  const db = openDatabase(dbPath, { mode: 'read' });
  return { store: new Store(db), close: () => db.close() };
}

/**
 * A read-only command's body with the store of --db (or $WEFT_DB, or the workspace's), closed
 * afterwards; the user's mistakes (no store, unknown run) exit 2 with their message.
 */
export function withReadOnlyStore(command: string, io: CliIo, db: string | undefined, body: (store: Store) => number | Promise<number>): Promise<number> {
  const path = storePath(db, io.cwd);
  return withUserErrors(command, io, async () => {
    const { store, close } = await openReadOnlyStore(path);
    try {
      return await body(store);
    } finally {
      close();
    }
  }, path);
}

/**
 * A command that acts on one run (approve, pause, retry, …): under the store's lease, resolve
 * RUN (an id or a unique prefix), act, let the engine settle, and print the run's outcome.
 */
export function actOnRun(command: string, io: CliIo, db: string | undefined, json: boolean, run: string, act: (engine: Engine, runId: string) => Promise<void>): Promise<number> {
  const path = storePath(db, io.cwd);
  return withUserErrors(command, io, async () => {
    const session = await openEngineSession(path, `weft ${command}`);
    try {
      const runId = session.store.resolveRunId(run);
      await act(session.engine, runId);
      return printRunOutcome(io, runId, await session.engine.settled(runId), json);
    } finally {
      session.close();
    }
  }, path);
}
