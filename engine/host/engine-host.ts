// The one engine host: what every front end that schedules runs does to own a store while it
// works, written once. A command of the CLI, `weft serve` (and so the desktop app, whose engine
// is a supervised `weft serve`) open the store, take the engine lease (refusing while another
// live engine holds it; a dead owner's lease is taken over), keep the lease fresh, build the
// Engine with its executors and workspace trust and the EngineService over it, publish the
// server's endpoint file, and give everything back on close. A failure of the store (a full disk,
// a damaged file), met by the heartbeat or by the engine, stops the engine and becomes one line
// naming the store and the cause (exit 2).
//
// The engine, its executors and SQLite are imported when a session opens, not when the CLI starts:
// `weft --version`, `weft runs` and `weft validate` do not pay for what they never use.
import { artifactsDirOf } from '../artifacts/artifact-store.ts';
import { StoreError } from '../store/store-error.ts';
import { storeFailure, type StorePhase } from '../store/store-failure.ts';
import type { Lease } from '../store/lease.ts';
import type { Store } from '../store/store.ts';
import { isPgStoreText } from '../store/store-text.ts';
import { systemClock } from '../time/clock.ts';
import type { EngineService } from '../service/engine-service.ts';
import { removeEndpointFile, writeEndpointFile } from './endpoint-file.ts';
import { buildEngine, closeEngine, sessionService } from './engine-build.ts';
import type { EngineSession, HostOptions, SessionMode } from './host-types.ts';

export type { EngineSession, HostOptions, ServiceOptions, SessionMode, SharedOptions } from './host-types.ts';

const HEARTBEAT_MS = 5_000;
const LEASE_WAIT_MS = 10_000;
const LEASE_RETRY_MS = 100;

/** How long a command waits for another live engine to give the store back ($WEFT_LEASE_WAIT_MS). */
function leaseWaitMs(env: NodeJS.ProcessEnv): number {
  const v = Number(env['WEFT_LEASE_WAIT_MS'] ?? LEASE_WAIT_MS);
  return Number.isFinite(v) && v >= 0 ? v : LEASE_WAIT_MS;
}

/** Takes the lease, waiting up to `waitMs` for a live owner to finish; a dead or stale owner's lease is taken over at once. */
async function acquire(lease: Lease, waitMs: number): Promise<void> {
  const giveUpAt = systemClock.now() + waitMs;
  for (;;) {
    try {
      lease.acquire();
      return;
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'locked') || systemClock.now() >= giveUpAt) throw e;
      await new Promise<void>((r) => systemClock.setTimer(LEASE_RETRY_MS, r));
    }
  }
}

/**
 * Opens the store at `dbPath`, takes its lease as `owner` (the name another engine's refusal
 * shows), and builds the engine that schedules it.
 *
 * @example
 * const session = await openEngineSession('/ws/.weft/weft.db', 'weft resume', 'write');
 * try { await session.service({ workspace: '/ws' }).resume(); } finally { await session.close(); }
 */
export async function openEngineSession(dbPath: string, owner: string, mode: SessionMode = 'write', env: NodeJS.ProcessEnv = process.env, o: HostOptions = {}): Promise<EngineSession> {
  // A PostgreSQL store is shared by several engines (docs/scale-out.md): no single lease, a fence instead.
  if (isPgStoreText(dbPath)) {
    const { openSharedSession } = await import('./shared-session.ts');
    return openSharedSession(dbPath, mode, env, o);
  }
  const [{ Lease }, { openDatabase }, { Store }] = await Promise.all([
    import('../store/lease.ts'),
    import('../store/open-database.ts'),
    import('../store/store.ts'),
  ]);
  const db = openDatabase(dbPath, { mode });
  let store: Store;
  let lease: Lease;
  try {
    store = new Store(db);
    lease = new Lease(db, owner, systemClock.now);
    await acquire(lease, o.leaseWaitMs ?? leaseWaitMs(env));
    store.useLease(lease);
  } catch (e) {
    db.close();
    if (e instanceof StoreError && e.code === 'locked' && o.lockedHint !== undefined) throw new StoreError('locked', `${e.message}; ${o.lockedHint}`);
    throw storeFailure(dbPath, e, 'open') ?? e;
  }
  let fatal: unknown;
  const engine = await buildEngine(store, env, artifactsDirOf(dbPath), (e) => {
    fatal ??= e;
    o.onFatal?.(e);
  });
  const heartbeat = setInterval(() => {
    try {
      lease.heartbeat();
    } catch (e) {
      // The store refused the write (a full disk, a damaged file): stop the engine now, as any
      // store failure does, rather than throw out of a timer (ending the process) or wait for the next commit.
      engine.fail(e);
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const failurePhase = (): StorePhase => (mode === 'create' && store.stats.commits === 0 ? 'start' : 'run');
  let published = false;
  const withdrawEndpoint = (): void => {
    if (!published) return;
    published = false;
    removeEndpointFile(dbPath);
  };
  let closed = false;
  return {
    store,
    engine,
    failurePhase,
    service: (s) => sessionService(store, engine, env, s),
    publishEndpoint(endpoint) {
      const file = writeEndpointFile(dbPath, { ...endpoint, pid: process.pid });
      published = true;
      return file;
    },
    withdrawEndpoint,
    async close() {
      if (closed) return;
      closed = true;
      withdrawEndpoint();
      // The heartbeat stops once the engine has stopped: a long drain keeps the lease fresh.
      const failure = await closeEngine(engine, { drain: o.drain !== false, fatal: () => fatal, heard: o.onFatal !== undefined, giveBack: () => (clearInterval(heartbeat), lease.release()), closeDb: () => db.close() });
      if (failure !== undefined) throw storeFailure(dbPath, failure, failurePhase()) ?? failure;
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

/**
 * `body` with an EngineService over the store at `dbPath`, under its lease (withEngineSession);
 * `workspace` is the folder its workflow files are found in, `actor` who acts by default.
 */
export function withEngineService<T>(dbPath: string, owner: string, o: { workspace: string; actor?: string; env?: NodeJS.ProcessEnv }, body: (service: EngineService) => Promise<T>, mode: SessionMode = 'write'): Promise<T> {
  const env = o.env ?? process.env;
  return withEngineSession(dbPath, owner, (session) => body(session.service({ workspace: o.workspace, ...(o.actor === undefined ? {} : { actor: o.actor }) })), mode, env);
}
