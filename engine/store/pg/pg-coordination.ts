// One engine's side of sharing a PostgreSQL store with others (issue 25, docs/scale-out.md): its
// registration as a worker, its heartbeat, the runs it claims (new ones, released ones, and those
// of dead workers), the runs it gives back, and the fence on each of its commits. The tables and
// functions are pg-coordination-sql.ts's. Every call is a round trip on the store's own
// synchronous connection, made between the engine's commits (never inside one, except the fence).
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { FINISHED_RUN_STATES } from '../../../shared/definition/names.ts';
import type { CommitBatch } from '../unit-of-work.ts';
import { StoreError } from '../store-error.ts';
import type { PgDb } from './pg-db.ts';
import { LEASE_LOST_CODE, POKE_CHANNEL, SLOT_CHANNEL } from './pg-coordination-sql.ts';

/**
 * What a registered engine is: a `weft worker`, a `weft serve` (which drives runs too), a
 * `weft serve --no-worker` (an intake: it starts runs and hands them over), or a command of the
 * CLI driving runs for a while.
 */
export type WorkerRole = 'worker' | 'serve' | 'intake' | 'command';

/** The channel a release or a new run is announced on: free workers claim at once rather than at their next poll. */
export const WORK_CHANNEL = 'weft_work';

const UNFINISHED = `r.state NOT IN (${FINISHED_RUN_STATES.map((s) => `'${s}'`).join(', ')})`;

/** One step activation's slot of a resource's pool (the engine's SharedSlot). */
export interface SharedSlot {
  pool: string;
  runId: string;
  stepId: string;
  activation: number;
}

/** A live worker, as the app's header and `weft workers` show it. */
export interface WorkerRow {
  id: string;
  role: WorkerRole;
  host: string;
  pid: number;
  startedAt: number;
  heartbeatAt: number;
}

/** True for the error a commit gets when a run it writes for was taken over (weft_fence). */
export function isLeaseLost(e: unknown): boolean {
  return typeof e === 'object' && e !== null && ((e as { code?: unknown }).code === LEASE_LOST_CODE || (e instanceof StoreError && e.code === 'lease-lost'));
}

export class PgCoordination {
  readonly workerId: string;
  /** Slots whose attempts ended in the batch being built: freed by its commit (fence()). */
  private releases: SharedSlot[] = [];

  /**
   * `ttlMs`: how long after its last heartbeat this engine counts as dead, and its runs may be
   * taken over. It heartbeats every ttlMs/4 (the host's timer).
   */
  constructor(
    private readonly db: PgDb,
    readonly role: WorkerRole,
    readonly ttlMs: number,
  ) {
    this.workerId = `${role}-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  }

  /** Adds this engine's row. */
  register(): void {
    this.query(
      'INSERT INTO weft_workers (id, role, host, pid, ttl_ms, started_at, heartbeat_at) VALUES ($1, $2, $3, $4, $5, weft_now_ms(), weft_now_ms())',
      [this.workerId, this.role, hostname(), process.pid, this.ttlMs],
    );
  }

  /**
   * Unfinished runs with no lease row yet (a store copied from SQLite, or made before the leases
   * existed) get one, free to claim: a claiming engine does it once as it starts, not every command.
   */
  adoptUnleased(): void {
    this.query(`INSERT INTO run_leases (run_id, owner) SELECT r.id, NULL FROM runs r WHERE ${UNFINISHED} AND r.kind = 'run' AND NOT EXISTS (SELECT 1 FROM run_leases l WHERE l.run_id = r.id) ON CONFLICT DO NOTHING`);
  }

  /**
   * Keeps this engine alive in the others' eyes. False when its row was already stale (this
   * process was stopped past its ttl, or the database was unreachable that long): others may have
   * taken its runs, so it must stop driving them (the host fails the engine and registers anew).
   */
  heartbeat(): boolean {
    const { rows } = this.query('UPDATE weft_workers SET heartbeat_at = weft_now_ms() WHERE id = $1 AND heartbeat_at >= weft_now_ms() - ttl_ms RETURNING 1 AS ok', [this.workerId]);
    return rows.length === 1;
  }

  /**
   * Takes up to `limit` unfinished runs that no live engine holds (released, or held by a dead
   * worker), oldest first; rows another engine is taking now are skipped (SKIP LOCKED), so two
   * claimers never take the same run. Answers their ids: the engine loads each (recovery included).
   * An engine whose own registration is stale takes nothing (it stops at its next heartbeat), and
   * never takes its own runs again: else, stale itself, it would claim its runs over and over.
   */
  claim(limit: number): string[] {
    const { rows } = this.query(
      `UPDATE run_leases l SET owner = $1, claims = l.claims + 1, claimed_at = weft_now_ms()
       WHERE l.run_id IN (
         SELECT c.run_id FROM run_leases c JOIN runs r ON r.id = c.run_id LEFT JOIN weft_workers w ON w.id = c.owner
         WHERE ${UNFINISHED} AND r.kind = 'run' AND c.owner IS DISTINCT FROM $1
           AND ((c.owner IS NULL AND c.wake_at <= weft_now_ms()) OR (c.owner IS NOT NULL AND (w.id IS NULL OR w.heartbeat_at < weft_now_ms() - w.ttl_ms)))
           AND EXISTS (SELECT 1 FROM weft_workers me WHERE me.id = $1 AND me.heartbeat_at >= weft_now_ms() - me.ttl_ms)
         ORDER BY r.created_at, c.run_id LIMIT $2 FOR UPDATE OF c SKIP LOCKED)
       RETURNING l.run_id`,
      [this.workerId, limit],
    );
    return rows.map((r) => String(r['run_id']));
  }

  /**
   * Takes one run to act on it (an operator's action, an event's delivery): free, dead-owned or
   * already this engine's. A run another live engine drives is refused, naming that engine.
   */
  acquire(runId: string): void {
    const { rows } = this.query(
      `INSERT INTO run_leases (run_id, owner, claims, claimed_at) VALUES ($1, $2, 1, weft_now_ms())
       ON CONFLICT (run_id) DO UPDATE SET owner = EXCLUDED.owner, claimed_at = EXCLUDED.claimed_at,
         claims = run_leases.claims + CASE WHEN run_leases.owner = EXCLUDED.owner THEN 0 ELSE 1 END
       WHERE run_leases.owner IS NULL OR run_leases.owner = EXCLUDED.owner
         OR NOT EXISTS (SELECT 1 FROM weft_workers w WHERE w.id = run_leases.owner AND w.heartbeat_at >= weft_now_ms() - w.ttl_ms)
       RETURNING owner`,
      [runId, this.workerId],
    );
    if (rows.length === 1) return;
    const holder = this.query('SELECT w.role, w.host, w.pid FROM run_leases l JOIN weft_workers w ON w.id = l.owner WHERE l.run_id = $1', [runId]).rows[0];
    const who = holder === undefined ? 'another engine' : `a weft ${String(holder['role'])} (process ${String(holder['pid'])} on ${String(holder['host'])})`;
    throw new StoreError('locked', `run ${runId} is being driven by ${who}; act on it through that engine's weft serve, or stop it (its runs pass to the other workers) and try again`);
  }

  /**
   * Gives runs back: each is claimed by a worker once its `wakeAt` comes (0: at once; null: only
   * when someone acts on it, through acquire), and the free workers are told.
   */
  release(runs: readonly { runId: string; wakeAt: number | null }[]): void {
    if (runs.length === 0) return;
    this.query(
      'UPDATE run_leases l SET owner = NULL, wake_at = r.wake_at FROM unnest($1::text[], $2::bigint[]) AS r(run_id, wake_at) WHERE l.run_id = r.run_id AND l.owner = $3',
      [runs.map((r) => r.runId), runs.map((r) => r.wakeAt), this.workerId],
    );
    if (runs.some((r) => r.wakeAt === 0)) this.query(`SELECT pg_notify('${WORK_CHANNEL}', '')`);
  }

  /** Leaves: every run it holds is given back and its row deleted (a worker stopping cleanly). */
  leave(): void {
    this.query('UPDATE run_leases SET owner = NULL, wake_at = 0 WHERE owner = $1', [this.workerId]);
    this.query('DELETE FROM weft_workers WHERE id = $1', [this.workerId]);
    this.query(`SELECT pg_notify('${WORK_CHANNEL}', '')`);
  }

  /** Takes a slot of `slot.pool` for one step activation if fewer than `limit` live engines' slots are taken (its own transaction). */
  takeSlot(slot: SharedSlot, limit: number): boolean {
    const { rows } = this.query('SELECT weft_take_slot($1, $2, $3, $4, $5, $6) AS ok', [this.workerId, slot.pool, limit, slot.runId, slot.stepId, slot.activation]);
    return rows[0]?.['ok'] === true;
  }

  /** The slot is freed by the next commit, the one recording its attempt's end. */
  releaseSlot(slot: SharedSlot): void {
    this.releases.push(slot);
  }

  /** Calls `heard` with each notification's payload on `channel`, and with '' when notifications may have been missed (a lost connection); answers the stop. */
  listen(channel: string, heard: (payload: string) => void): () => void {
    return this.db.pg.listen(channel, heard, () => heard(''));
  }

  /** Tells the engines holding these runs to look at them again (POKE_CHANNEL). */
  poke(runIds: readonly string[]): void {
    this.query(`SELECT pg_notify('${POKE_CHANNEL}', id) FROM unnest($1::text[]) AS id`, [runIds]);
  }

  /** The live engines (heartbeat within their ttl), oldest first. */
  workers(): WorkerRow[] {
    return this.query('SELECT id, role, host, pid, started_at, heartbeat_at FROM weft_workers WHERE heartbeat_at >= weft_now_ms() - ttl_ms ORDER BY started_at, id').rows.map((r) => ({
      id: String(r['id']),
      role: r['role'] as WorkerRole,
      host: String(r['host']),
      pid: Number(r['pid']),
      startedAt: Number(r['started_at']),
      heartbeatAt: Number(r['heartbeat_at']),
    }));
  }

  /**
   * The fence, queued as the first statement of a commit's transaction (UnitOfWork's guard): the
   * runs the batch creates become this engine's, and the commit fails with WF001, writing
   * nothing, if any run it writes for is no longer this engine's.
   */
  fence(batch: CommitBatch): void {
    const releases = this.releases;
    this.releases = [];
    if (releases.length > 0) {
      this.db.write('weft_slots release', 'DELETE FROM weft_slots WHERE (pool, run_id, step_id, activation) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]))', [
        releases.map((r) => r.pool),
        releases.map((r) => r.runId),
        releases.map((r) => r.stepId),
        releases.map((r) => r.activation),
      ]);
      this.db.write('weft_slot notify', `SELECT pg_notify('${SLOT_CHANNEL}', '')`, []);
    }
    if (batch.events.length === 0) return;
    const runs = new Set<string>();
    const created: string[] = [];
    for (const e of batch.events) {
      runs.add(e.runId);
      if (e.type === 'run_created') created.push(e.runId);
    }
    this.db.write('weft_fence', 'SELECT weft_fence($1, $2::text[], $3::text[])', [this.workerId, [...runs].sort(), created]);
  }

  private query(text: string, values: readonly unknown[] = []): { rows: Record<string, unknown>[] } {
    return this.db.pg.query(text, values, 'object') as { rows: Record<string, unknown>[] };
  }
}
