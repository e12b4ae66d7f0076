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
import { artifactsDirOf, FileArtifactStore } from '../artifacts/artifact-store.ts';
import { artifactThreshold } from '../artifacts/artifact-threshold.ts';
import type { ServeEndpoint } from '../../shared/api/serve-endpoint.ts';
import type { Engine } from '../runtime/engine.ts';
import { StoreError } from '../store/store-error.ts';
import { storeFailure, type StorePhase } from '../store/store-failure.ts';
import type { Lease } from '../store/lease.ts';
import type { Store } from '../store/store.ts';
import type { SharedStore } from '../runtime/live-run.ts';
import type { WorkerRole, WorkerRow } from '../store/pg/pg-coordination.ts';
import { isPgStoreText } from '../store/store-text.ts';
import { systemClock, systemRandom } from '../time/clock.ts';
import { EngineService } from '../service/engine-service.ts';
import { trustCheck } from '../service/workspace-trust.ts';
import { workspacePrices } from '../cost/load-prices.ts';
import { removeEndpointFile, writeEndpointFile } from './endpoint-file.ts';

/** `create` makes the store if there is none (weft run, weft serve); `write` needs one there already. */
export type SessionMode = 'create' | 'write';

/** How a front end differs in owning a store; a command of the CLI takes the defaults. */
export interface HostOptions {
  /** How long to wait for a live owner to give the store back ($WEFT_LEASE_WAIT_MS, else 10 s). */
  leaseWaitMs?: number;
  /** What to do, added to the refusal when a live engine holds the store. */
  lockedHint?: string;
  /** Hears the store failure that stopped the engine, when it happens; close() then does not throw it again. */
  onFatal?: (error: unknown) => void;
  /**
   * Whether close() first waits for the attempts the engine started (a command: true, the
   * default) or aborts them, recorded as at any engine stop, for the next engine (a server).
   */
  drain?: boolean;
  /**
   * On a PostgreSQL store (docs/scale-out.md): what this engine is among the store's engines
   * (`command` unless given), and what it does besides acting on the runs it is given.
   */
  shared?: SharedOptions;
}

/** How an engine on a PostgreSQL store shares it (engine/host/shared-session.ts). */
export interface SharedOptions {
  role?: WorkerRole;
  /** Claims released runs and dead workers' runs and drives them (`weft worker`, `weft serve`). */
  claim?: boolean;
  /** Starts no attempt: hands every run it writes to the workers (`weft serve --no-worker`). */
  intake?: boolean;
  /** How long after its last heartbeat this engine counts as dead (WEFT_LEASE_TTL_MS, else 5 s). */
  ttlMs?: number;
  /** Hears what the engine says of its runs and lease (a line each). */
  log?: (line: string) => void;
}

/** The EngineService a front end wants over the session's engine. */
export interface ServiceOptions {
  /** The folder its workflow files are found in. */
  workspace: string;
  /** Who acts when a command names nobody; engine/service/who-acts.ts's default unless given. */
  actor?: string;
  /** The workflow templates of a new workflow; Weft's examples/ unless given. */
  templatesDir?: string;
}

export interface EngineSession {
  store: Store;
  engine: Engine;
  /**
   * What a store failure means for what to do next: `start` while a command that creates runs
   * (weft run) has committed nothing (its run is not in the store: run the command again), else
   * `run` (`weft resume` continues from what was committed).
   */
  failurePhase(): StorePhase;
  /** An EngineService over this engine, with the session's environment. */
  service(o: ServiceOptions): EngineService;
  /** Writes serve.json beside the store (this process's pid added); close() removes it. Answers its path. */
  publishEndpoint(endpoint: Omit<ServeEndpoint, 'pid'>): string;
  /** Removes the serve.json this session wrote, if any (a server does it before it stops listening). */
  withdrawEndpoint(): void;
  /**
   * Waits for the attempts the engine started (unless `drain` is false; starting no new ones),
   * writes what is pending and gives the store back. Throws the store failure that stopped the
   * engine, if one did (and no onFatal heard it), or one met while closing. A second call does nothing.
   */
  close(): Promise<void>;
  /** On a PostgreSQL store: this engine's id among the store's workers, and the live ones. */
  shared?: { readonly workerId: string; workers(): WorkerRow[] };
}

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
 * The engine every host builds over its store: the default executors, the workspace's trust and
 * prices, artifacts kept in `artifactsDir`; `shared` when other engines share the store.
 */
export async function buildEngine(store: Store, env: NodeJS.ProcessEnv, artifactsDir: string, onFatal: (e: unknown) => void, shared?: SharedStore): Promise<Engine> {
  const [{ Engine }, { defaultExecutors }] = await Promise.all([import('../runtime/engine.ts'), import('../executors/default-executors.ts')]);
  return new Engine({
    store,
    clock: systemClock,
    random: systemRandom,
    executors: defaultExecutors(),
    onFatal,
    workspaceTrust: trustCheck(env),
    prices: workspacePrices().of,
    artifacts: new FileArtifactStore(artifactsDir),
    ...artifactThreshold(env),
    ...(shared === undefined ? {} : { shared }),
  });
}

/** The EngineService a session gives a front end (`s` as EngineSession.service takes it). */
export function sessionService(store: Store, engine: Engine, env: NodeJS.ProcessEnv, s: ServiceOptions): EngineService {
  return new EngineService(store, engine, s.workspace, env, { ...(s.actor === undefined ? {} : { actor: s.actor }), ...(s.templatesDir === undefined ? {} : { templatesDir: s.templatesDir }) });
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
      if (fatal === undefined && o.drain !== false) await engine.drain();
      clearInterval(heartbeat);
      engine.close();
      let failure = fatal;
      try {
        if (fatal === undefined) engine.flush();
        lease.release();
      } catch (e) {
        failure ??= e;
      } finally {
        db.close();
      }
      // A failure the front end already heard (onFatal) is not its stop's failure too.
      if (failure === undefined || (failure === fatal && o.onFatal !== undefined)) return;
      throw storeFailure(dbPath, failure, failurePhase()) ?? failure;
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
