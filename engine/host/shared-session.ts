// An engine session on a PostgreSQL store, which several engines share (issue 25,
// docs/scale-out.md): where a SQLite store has one lease for one engine, each engine here
// registers as a worker (engine/store/pg/pg-coordination.ts), heartbeats every ttl/4, and drives
// only the runs it holds: those it creates, those it acquires to act on, and, when it claims
// (`weft worker`, `weft serve`), released runs and the runs of workers that died. Every commit is
// fenced: a commit writing for a run another worker took over fails (WF001), and the engine
// stops (its host registers again). An engine whose heartbeat has lapsed starts no attempt.
//
// Values kept by reference (artifacts) go to $WEFT_ARTIFACTS_DIR, else .weft/artifacts in the
// current folder: workers on several machines need that folder shared (docs/scale-out.md).
import { performance } from 'node:perf_hooks';
import { PgCoordination, WORK_CHANNEL, isLeaseLost } from '../store/pg/pg-coordination.ts';
import { POKE_CHANNEL, SLOT_CHANNEL } from '../store/pg/pg-coordination-sql.ts';
import type { ReleasedRun } from '../runtime/run-release.ts';
import { storeLocator, describeStore } from '../store/store-locator.ts';
import { storeArtifactsDir } from '../store/store-home.ts';
import { StoreError } from '../store/store-error.ts';
import { buildEngine, closeEngine, sessionService } from './engine-build.ts';
import type { EngineSession, HostOptions, SessionMode } from './host-types.ts';

/** The default ttl of an engine's registration: dead 10 s after its last heartbeat (a loaded machine can stall a process for seconds). */
export const DEFAULT_TTL_MS = 10_000;

/** How many runs one claim takes at most; the next batch waits a turn of the event loop, so workers woken together share the work. */
const CLAIM_BATCH = 8;

/** The ttl an engine registers with: SharedOptions.ttlMs, else $WEFT_LEASE_TTL_MS, else 5 s. */
function ttlOf(given: number | undefined, env: NodeJS.ProcessEnv): number {
  const v = given ?? Number(env['WEFT_LEASE_TTL_MS'] ?? DEFAULT_TTL_MS);
  if (!Number.isFinite(v) || v < 200) throw new StoreError('bad-input', `the lease ttl must be at least 200 ms; got ${String(given ?? env['WEFT_LEASE_TTL_MS'])} (--lease-ttl-ms or WEFT_LEASE_TTL_MS)`);
  return v;
}

/**
 * Opens the PostgreSQL store `url` as one of its engines.
 * @example const s = await openSharedSession('postgres://weft@%2Ftmp/weft', 'write', process.env, { shared: { role: 'worker', claim: true } });
 */
export async function openSharedSession(url: string, mode: SessionMode, env: NodeJS.ProcessEnv, o: HostOptions): Promise<EngineSession> {
  const shared = o.shared ?? {};
  const ttlMs = ttlOf(shared.ttlMs, env);
  const where = storeLocator(url, process.cwd());
  if (where.kind !== 'postgres') throw new StoreError('bad-input', `${url} is not a PostgreSQL URL`);
  const [{ openPgDb }, { Store }] = await Promise.all([import('../store/pg/open-pg-store.ts'), import('../store/store.ts')]);
  const db = openPgDb(where.url, { ...(where.schema === undefined ? {} : { schema: where.schema }), create: mode === 'create' });
  const coordination = new PgCoordination(db, shared.role ?? 'command', ttlMs);
  const store = new Store(db);
  try {
    coordination.register();
  } catch (e) {
    db.close();
    throw e;
  }
  store.guardCommits((batch) => coordination.fence(batch));
  const log = shared.log ?? ((): void => undefined);
  let lastBeat = performance.now();
  let fatal: unknown;
  const engine = await buildEngine(store, env, storeArtifactsDir(where, shared.workspace ?? process.cwd(), env), (e) => {
    fatal ??= e;
    log(isLeaseLost(e) ? `lease lost: ${e instanceof Error ? e.message : String(e)}` : `stopped: ${e instanceof Error ? e.message : String(e)}`);
    o.onFatal?.(e);
  }, {
    acquire: (runId) => coordination.acquire(runId),
    // Two heartbeats may be missed before a launch is refused; the third would be the ttl.
    mayLaunch: () => performance.now() - lastBeat < ttlMs / 2,
    takeSlot: (slot, limit) => coordination.takeSlot(slot, limit),
    releaseSlot: (slot) => coordination.releaseSlot(slot),
    poke: (runIds) => {
      try {
        coordination.poke(runIds);
      } catch {
        // The database is unreachable: the holder looks again when it next loads the run.
      }
    },
    // Commands keep what they drive until they close (leave() gives it all back); the others give back what only waits.
    ...(shared.intake === true ? { intake: true } : {}),
    ...(shared.intake === true || shared.claim === true ? { release: (runs: readonly ReleasedRun[]) => coordination.release(runs) } : {}),
  });
  const heartbeat = setInterval(() => {
    if (fatal !== undefined) return;
    try {
      if (coordination.heartbeat()) lastBeat = performance.now();
      else engine.fail(new StoreError('lease-lost', `this engine (${coordination.workerId}) missed its heartbeats for longer than its ttl (${ttlMs} ms): other workers may have taken its runs over, so it stops driving them`));
    } catch {
      // The database is unreachable: the launch guard and the next commit stop the engine if it stays so.
    }
  }, Math.max(50, Math.floor(ttlMs / 4)));
  heartbeat.unref();
  const claims = shared.claim === true ? claimLoop(coordination, engine, { ttlMs, maxRuns: shared.maxRuns ?? Infinity }, () => fatal !== undefined, log) : undefined;
  const slots = shared.intake === true ? undefined : slotWatch(coordination, engine, ttlMs);
  const pokes = pokeWatch(coordination, engine);
  let closed = false;
  return {
    store,
    engine,
    failurePhase: () => (mode === 'create' && store.stats.commits === 0 ? 'start' : 'run'),
    service: (s) => sessionService(store, engine, env, s),
    // Commands find a PostgreSQL store's engines through the database, not through a file beside it.
    publishEndpoint: () => describeStore(where),
    withdrawEndpoint: () => undefined,
    shared: { workerId: coordination.workerId, workers: () => coordination.workers() },
    async close() {
      if (closed) return;
      closed = true;
      claims?.stop();
      slots?.stop();
      pokes();
      const failure = await closeEngine(engine, { drain: o.drain !== false, fatal: () => fatal, heard: o.onFatal !== undefined, giveBack: () => (clearInterval(heartbeat), coordination.leave()), closeDb: () => db.close() });
      if (failure !== undefined) throw failure;
    },
  };
}

/**
 * Claims what no live engine holds, at once when a run is released or a worker leaves (a
 * notification), and every ttl/4 otherwise (a worker that died says nothing): each claimed run is
 * loaded, which recovers it (an interrupted external attempt becomes unknown, overdue timers fire).
 */
function claimLoop(coordination: PgCoordination, engine: { load(runId: string): unknown; readonly heldRuns: number }, o: { ttlMs: number; maxRuns: number }, stopped: () => boolean, log: (line: string) => void): { stop(): void } {
  const { ttlMs } = o;
  let scheduled = false;
  const claim = (): void => {
    scheduled = false;
    if (stopped()) return;
    const room = Math.min(CLAIM_BATCH, o.maxRuns - engine.heldRuns);
    if (room <= 0) return;
    let ids: string[];
    try {
      ids = coordination.claim(room);
    } catch {
      return; // the database is unreachable now: the next poll tries again
    }
    for (const id of ids) {
      try {
        engine.load(id);
      } catch (e) {
        log(`run ${id} could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (ids.length === room) soon();
  };
  const soon = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(claim);
  };
  try {
    coordination.adoptUnleased();
  } catch {
    // The database is unreachable now: the next worker to start adopts them.
  }
  const stop = watch(coordination, WORK_CHANNEL, soon, ttlMs, true);
  soon();
  return { stop };
}

/**
 * Attempts queued for a slot of a resource's pool try again when another engine frees one (its
 * commit notifies), and every ttl/4 in case a notification was missed or a dead engine's slots
 * stopped counting.
 */
function slotWatch(coordination: PgCoordination, engine: { retrySlots(): void }, ttlMs: number): { stop(): void } {
  return { stop: watch(coordination, SLOT_CHANNEL, () => engine.retrySlots(), ttlMs, false) };
}

/** Pokes from other engines (engine-core acquire): a run held here looks again at what it waits for. */
function pokeWatch(coordination: PgCoordination, engine: { resumeWaits(runId: string): void }): () => void {
  return watch(coordination, POKE_CHANNEL, (runId) => runId !== '' && engine.resumeWaits(runId));
}

/**
 * Calls `heard` on each notification on `channel` (with its payload; '' after a lost connection),
 * and every ttl/4 when `ttlMs` is given (a poll that keeps the process alive when `ref`); answers the stop.
 * Without a LISTEN now (the connection failed just then), the poll alone hears.
 */
function watch(coordination: PgCoordination, channel: string, heard: (payload: string) => unknown, ttlMs?: number, ref = false): () => void {
  let unlisten: (() => void) | undefined;
  try {
    unlisten = coordination.listen(channel, (payload) => void heard(payload));
  } catch {
    // No LISTEN now: the poll (if any) hears instead.
  }
  const poll = ttlMs === undefined ? undefined : setInterval(() => heard(''), Math.max(50, Math.floor(ttlMs / 4)));
  if (!ref) poll?.unref();
  return () => {
    clearInterval(poll);
    try {
      unlisten?.();
    } catch {
      // The connection is gone: so is its LISTEN.
    }
  };
}
