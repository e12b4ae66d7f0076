// The runs list as a front end pages it: newest first, filtered by workflow and state, continued
// after the last row of the previous page (a keyset cursor "createdAt:id", stable while runs are
// added). Read-only queries on the runs projection. Each filter has an index in the page's order
// (runs_newest, runs_by_workflow_newest, runs_by_state: migrations 2 and 10), so a page reads its
// rows and stops, whatever the size of the store; test/engine/run-list-plan.test.ts checks the plans.
import type { RunState } from '../../shared/definition/names.ts';
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { MAX_RUN_PAGE } from '../../shared/api/run-summary.ts';
import type { RunKind, RunRow } from './store-types.ts';
import { REPLAY_VERSION_BASE } from './replay-version.ts';

export interface RunListFilter {
  workflow?: string;
  state?: RunState;
  /** The `next` of the previous page. */
  after?: string;
  limit?: number;
  /** Text the workflow id or the run id contains, taken literally (no LIKE wildcards). */
  q?: string;
  /** Runs of this version of their workflow. */
  version?: number;
  /** Only failed or stuck runs (needs_attention): the service keeps those that went wrong at this step (read-model.ts). */
  failingStep?: string;
  /** Runs created at or after this time (ms since the epoch). */
  createdAfterMs?: number;
  /** Runs created before this time (ms since the epoch). */
  createdBeforeMs?: number;
  /** Real runs (the default) or replays (weft replay; replay-runs.ts): the list never mixes them. */
  kind?: RunKind;
}

/** A row of the runs projection, as the store keeps it (without the idempotency key). */
export type RunListRow = Omit<RunRow, 'key'>;


export function listRunPage(db: Db, filter: RunListFilter): { rows: RunListRow[]; next: string | null } {
  const limit = filter.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_RUN_PAGE) throw new StoreError('bad-input', `limit must be a whole number from 1 to ${MAX_RUN_PAGE}, not ${limit}`);
  const where: string[] = ['kind = ?'];
  const args: (string | number)[] = [filter.kind ?? 'run'];
  if (filter.workflow !== undefined) {
    where.push('workflow_id = ?');
    args.push(filter.workflow);
  }
  if (filter.state !== undefined) {
    where.push('state = ?');
    args.push(filter.state);
  }
  if (filter.version !== undefined) {
    where.push('version = ?');
    args.push(filter.version);
  }
  if (filter.failingStep !== undefined && filter.state === undefined) where.push("state IN ('failed', 'needs_attention')");
  if (filter.createdAfterMs !== undefined) {
    where.push('created_at >= ?');
    args.push(filter.createdAfterMs);
  }
  if (filter.createdBeforeMs !== undefined) {
    where.push('created_at < ?');
    args.push(filter.createdBeforeMs);
  }
  if (filter.q !== undefined) {
    const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push("(workflow_id LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\')");
    args.push(like, like);
  }
  if (filter.after !== undefined) {
    const match = /^(\d{1,16}):(.{1,200})$/.exec(filter.after);
    if (match === null) throw new StoreError('bad-input', `after must be the "next" of an earlier page (such as "1764585600000:rmx1nk"), not "${filter.after.slice(0, 40)}"`);
    // A row value, not "created_at < ? OR (created_at = ? AND id < ?)": SQLite seeks an index in
    // (created_at, id) order to it (migration 10), where the OR form scans from the newest run.
    where.push('(created_at, id) < (?, ?)');
    args.push(Number(match[1]), match[2] ?? '');
  }
  const sql = `SELECT id, workflow_id, version, state, input_revision, created_at, updated_at FROM runs WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`;
  const raw = db.prepare(sql).raw().all(...args, limit + 1) as [string, string, number, RunState, number, number, number][];
  const rows = raw.slice(0, limit).map(([id, workflowId, version, state, inputRevision, createdAt, updatedAt]) => ({ id, workflowId, version, state, inputRevision, createdAt, updatedAt }));
  const last = rows[rows.length - 1];
  return { rows, next: raw.length > limit && last !== undefined ? `${last.createdAt}:${last.id}` : null };
}

/** The versions of a workflow stored here (each ran, or was snapshotted to run), oldest first. */
export function definitionVersions(db: Db, workflowId: string): { version: number; definitionHash: string; savedAtMs: number }[] {
  const rows = db.prepare(`SELECT version, hash, created_at FROM definitions WHERE workflow_id = ? AND version < ${REPLAY_VERSION_BASE} ORDER BY version`).raw().all(workflowId) as [number, string, number][];
  return rows.map(([version, definitionHash, savedAtMs]) => ({ version, definitionHash, savedAtMs }));
}

/** The newest cursor of the event log, or of one run's events (0 when there are none): where "from now on" starts. */
export function lastCursor(db: Db, runId?: string): number {
  const row = runId === undefined ? db.prepare('SELECT coalesce(max(cursor), 0) AS c FROM events').get() : db.prepare('SELECT coalesce(max(cursor), 0) AS c FROM events WHERE run_id = ?').get(runId);
  return (row as { c: number }).c;
}

/**
 * Which of `runIds` are debug runs: their run_created event (seq 1) carries debug settings. Read
 * from the log (one indexed row per run), so a store needs no new column for the mark.
 */
export function debugRunIds(db: Db, runIds: readonly string[]): Set<string> {
  if (runIds.length === 0) return new Set();
  const marks = runIds.map(() => '?').join(', ');
  const rows = db.prepare(`SELECT run_id FROM events WHERE seq = 1 AND run_id IN (${marks}) AND json_extract(data, '$.debug') IS NOT NULL`).raw().all(...runIds) as [string][];
  return new Set(rows.map(([id]) => id));
}
