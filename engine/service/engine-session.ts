// A front end that schedules runs owns the store while it works: it opens the store, takes the
// engine lease (refusing while another live engine holds it; a dead owner's lease is taken over),
// keeps the lease fresh, and gives it back on close, once every attempt it started has ended.
// A failure of the store (a full disk, a damaged file) stops the engine and becomes one line
// naming the store and the cause (exit 2). Read-only commands open the store without a lease,
// read-only. Only `weft run` (and `weft serve`) create a store: every other command needs one.
//
// The engine, its executors and SQLite are imported when a session opens, not when the CLI starts:
// `weft --version`, `weft runs` and `weft validate` do not pay for what they never use.
import type { Engine } from '../runtime/engine.ts';
import { StoreError } from '../store/store-error.ts';
import { storeFailure, type StorePhase } from '../store/store-failure.ts';
import { systemClock, systemRandom } from '../time/clock.ts';
import type { Store } from '../store/store.ts';
import { EngineService } from './engine-service.ts';
import { RunReader } from './run-reader.ts';
import { trustCheck } from './workspace-trust.ts';

export interface EngineSession {
  store: Store;
  engine: Engine;
  /**
   * What a store failure means for what to do next: `start` while a command that creates runs
   * (weft run) has committed nothing (its run is not in the store: run the command again), else
   * `run` (`weft resume` continues from what was committed).
   */
  failurePhase(): StorePhase;
  /**
   * Waits for the attempts the engine started (starting no new ones), writes what is pending and
   * gives the store back. Throws the store failure that stopped the engine, if one did.
   */
  close(): Promise<void>;
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
/** `create` makes the store if there is none (weft run); `write` needs one there already. */
export type SessionMode = 'create' | 'write';

export async function openEngineSession(dbPath: string, owner: string, mode: SessionMode = 'write', env: NodeJS.ProcessEnv = process.env): Promise<EngineSession> {
  const [{ Engine }, { defaultExecutors }, { Lease }, { openDatabase }, { Store }] = await Promise.all([
    import('../runtime/engine.ts'),
    import('../executors/default-executors.ts'),
    import('../store/lease.ts'),
    import('../store/open-database.ts'),
    import('../store/store.ts'),
  ]);
  const db = openDatabase(dbPath, { mode });
  let store: Store;
  let lease: InstanceType<typeof Lease>;
  try {
    store = new Store(db);
    lease = new Lease(db, owner, systemClock.now);
    const giveUpAt = Date.now() + leaseWaitMs();
    for (;;) {
      try {
        lease.acquire();
        break;
      } catch (e) {
        if (!(e instanceof StoreError && e.code === 'locked') || Date.now() >= giveUpAt) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (e) {
    db.close();
    throw storeFailure(dbPath, e, 'open') ?? e;
  }
  let fatal: unknown;
  const engine = new Engine({
    store,
    clock: systemClock,
    random: systemRandom,
    executors: defaultExecutors(),
    onFatal: (e) => {
      fatal ??= e;
    },
    workspaceTrust: trustCheck(env),
  });
  const heartbeat = setInterval(() => {
    try {
      lease.heartbeat();
    } catch (e) {
      engine.fail(e); // the store cannot be written: stop now rather than at the next commit
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const failurePhase = (): StorePhase => (mode === 'create' && store.stats.commits === 0 ? 'start' : 'run');
  return {
    store,
    engine,
    failurePhase,
    async close() {
      if (fatal === undefined) await engine.drain();
      clearInterval(heartbeat);
      engine.close();
      try {
        if (fatal === undefined) engine.flush();
        lease.release();
      } catch (e) {
        fatal ??= e;
      } finally {
        db.close();
      }
      if (fatal !== undefined) throw storeFailure(dbPath, fatal, failurePhase()) ?? fatal;
    },
  };
}

/**
 * A command's body under the store's lease (openEngineSession), closed afterwards. A SQLite
 * failure, in the body or in the engine, becomes a StoreError naming the store (exit 2); the
 * engine's own failure wins over what the body saw of it.
 */
export async function withEngineSession<T>(dbPath: string, owner: string, body: (session: EngineSession) => Promise<T>, mode: SessionMode = 'write', env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const session = await openEngineSession(dbPath, owner, mode, env);
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await body(session) };
  } catch (e) {
    outcome = { ok: false, error: e };
  }
  try {
    await session.close();
  } catch (e) {
    outcome = { ok: false, error: e };
  }
  if (!outcome.ok) throw storeFailure(dbPath, outcome.error, session.failurePhase()) ?? outcome.error;
  return outcome.value;
}

/** For commands that only read: no lease, a store that must already exist, opened read-only. */
export async function openReadOnlyStore(dbPath: string): Promise<{ store: Store; close(): void }> {
  const [{ openDatabase }, { Store }] = await Promise.all([import('../store/open-database.ts'), import('../store/store.ts')]);
  const db = openDatabase(dbPath, { mode: 'read' });
  return { store: new Store(db), close: () => db.close() };
}

/**
 * `body` with a reader over the store at `dbPath`, opened read-only and closed afterwards; a
 * SQLite failure while reading becomes a StoreError naming the store. A store whose log does not
 * read as weft's is still read (its sound runs are); after a body that succeeded, `damaged`
 * hears what is wrong and where (a command that writes refuses such a store).
 */
export async function withRunReader<T>(dbPath: string, body: (reader: RunReader) => T | Promise<T>, damaged?: (what: string) => void): Promise<T> {
  const { store, close } = await openReadOnlyStore(dbPath);
  try {
    const value = await body(new RunReader(store));
    if (damaged !== undefined) {
      const { storeLogDamage } = await import('../store/check-log.ts');
      const damage = storeLogDamage(store.db);
      if (damage !== undefined) damaged(damage);
    }
    return value;
  } catch (e) {
    throw storeFailure(dbPath, e, 'read') ?? e;
  } finally {
    close();
  }
}

/**
 * `body` with an EngineService over the store at `dbPath`, under its lease (withEngineSession);
 * `workspace` is the folder its workflow files are found in, `actor` who acts by default.
 */
export function withEngineService<T>(dbPath: string, owner: string, o: { workspace: string; actor?: string; env?: NodeJS.ProcessEnv }, body: (service: EngineService) => Promise<T>, mode: SessionMode = 'write'): Promise<T> {
  const env = o.env ?? process.env;
  return withEngineSession(dbPath, owner, (session) => body(new EngineService(session.store, session.engine, o.workspace, env, o.actor === undefined ? {} : { actor: o.actor })), mode, env);
}
