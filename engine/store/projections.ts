// The projections' job in the store: the `runs` and `step_states` tables, which list runs and
// their waiting steps and can always be rebuilt from the log. The engine sets a run's rows while
// it folds; they are held for the next commit (unit-of-work.ts) and written with the events that
// made them, so a run's rows never disagree with its log. Reads here are of those tables only
// (the runs list page is run-list.ts; a workflow's rollups, run-rollups.ts).
import type { RunState } from '../../shared/definition/names.ts';
import { FINISHED_STATES_SQL } from './run-state-sql.ts';
import type { EventLog } from './event-log.ts';
import { listRunPage, type RunListFilter, type RunListRow } from './run-list.ts';
import { StoreError } from './store-error.ts';
import type { RunRow, StepProjection } from './store-types.ts';
import type { BatchPart, PendingWrites, UnitOfWork } from './unit-of-work.ts';

type RunColumns = [string, string, number, RunState, number, number, number];
const RUN_COLUMNS = 'id, workflow_id, version, state, input_revision, created_at, updated_at';

export class Projections implements BatchPart {
  private readonly runs = new Map<string, RunRow>();
  private readonly steps = new Map<string, Map<string, StepProjection>>();
  private readonly stepClears = new Set<string>();
  private clearAll = false;
  private readonly upsertRun;
  private readonly upsertStep;
  private readonly clearSteps;

  constructor(
    private readonly work: UnitOfWork,
    private readonly log: EventLog,
  ) {
    this.upsertRun = work.stmt(
      'INSERT INTO runs (id, workflow_id, version, state, input_revision, created_at, updated_at, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version, state = excluded.state, input_revision = excluded.input_revision, updated_at = excluded.updated_at',
    );
    this.upsertStep = work.stmt(
      'INSERT INTO step_states (run_id, step_id, activation, state, attempts, evidence_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, step_id) DO UPDATE SET activation = excluded.activation, state = excluded.state, attempts = excluded.attempts, evidence_id = excluded.evidence_id',
    );
    this.clearSteps = work.stmt('DELETE FROM step_states WHERE run_id = ?');
  }

  // ---- the batch ----

  setRun(run: RunRow): void {
    this.runs.set(run.id, run);
  }

  setStep(runId: string, step: StepProjection): void {
    this.stepClears.delete(runId);
    let m = this.steps.get(runId);
    if (m === undefined) this.steps.set(runId, (m = new Map()));
    m.set(step.stepId, step);
  }

  clearStepsOf(runId: string): void {
    this.steps.delete(runId);
    this.stepClears.add(runId);
  }

  clearAllSteps(): void {
    this.clearAll = true;
  }

  /** Step rows alone wait for a run's row or an event: they never call for a commit of their own. */
  get hasPending(): boolean {
    return this.runs.size > 0 || this.clearAll;
  }

  take(): PendingWrites {
    const runs = [...this.runs.values()];
    const steps: [string, StepProjection][] = [];
    for (const [runId, m] of this.steps) for (const s of m.values()) steps.push([runId, s]);
    const clears = [...this.stepClears];
    const clearAll = this.clearAll;
    this.clearAll = false;
    this.runs.clear();
    this.steps.clear();
    this.stepClears.clear();
    return {
      rows: runs.length + steps.length + clears.length,
      write: () => {
        // Clears first: a rebuild deletes every step row, then writes the ones it set.
        if (clearAll) this.work.db.exec('DELETE FROM step_states');
        for (const id of clears) this.clearSteps.run(id);
        for (const r of runs) this.upsertRun.run(r.id, r.workflowId, r.version, r.state, r.inputRevision, r.createdAt, r.updatedAt, r.key ?? null);
        for (const [runId, s] of steps) this.upsertStep.run(runId, s.stepId, s.activation, s.state, s.attempts, s.evidenceId);
      },
    };
  }

  // ---- reads ----

  getRun(runId: string): RunRow | undefined {
    const r = this.work.stmt(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`).raw().get(runId) as RunColumns | undefined;
    return r === undefined ? undefined : toRunRow(r);
  }

  resolveRunId(idOrPrefix: string): string {
    if (this.getRun(idOrPrefix)) return idOrPrefix;
    // A range on the key, not LIKE: any length of prefix works (LIKE refuses long patterns) and
    // the primary key is used. Every id that starts with the prefix sorts between the two bounds.
    const rows = idOrPrefix === '' ? [] : (this.work.stmt('SELECT id FROM runs WHERE id >= ? AND id < ? ORDER BY id LIMIT 3').all(idOrPrefix, `${idOrPrefix}\u{10FFFF}`) as { id: string }[]);
    if (rows.length === 1 && rows[0]) return rows[0].id;
    // A run in the log whose row is missing (left by an older engine's crash) is still a run.
    if (rows.length === 0 && this.log.hasEvents(idOrPrefix)) return idOrPrefix;
    if (rows.length === 0) throw new StoreError('unknown-run', `no run ${quoteRunId(idOrPrefix)} in this store; list runs with \`weft runs\``);
    throw new StoreError('unknown-run', `${quoteRunId(idOrPrefix)} matches several runs (${rows.map((r) => r.id).join(', ')}…); give more of the id`);
  }

  listRuns(limit: number): RunRow[] {
    return (this.work.stmt(`SELECT ${RUN_COLUMNS} FROM runs WHERE kind = 'run' ORDER BY created_at DESC, id DESC LIMIT ?`).raw().all(limit) as RunColumns[]).map(toRunRow);
  }

  runPage(filter: RunListFilter): { rows: RunListRow[]; next: string | null } {
    return listRunPage(this.work.db, filter);
  }

  runsWithWaitingSteps(): string[] {
    return ids(this.work.stmt("SELECT DISTINCT run_id AS id FROM step_states WHERE state = 'waiting' ORDER BY run_id").all());
  }

  runByKey(workflowId: string, key: string): string | undefined {
    const row = this.work.stmt('SELECT id FROM runs WHERE workflow_id = ? AND idempotency_key = ?').get(workflowId, key) as { id: string } | undefined;
    return row?.id;
  }

  runningRunIds(workflowId: string): string[] {
    return ids(this.work.stmt("SELECT id FROM runs WHERE workflow_id = ? AND state = 'running' AND kind = 'run'").all(workflowId));
  }

  runIdsOfWorkflow(workflowId: string, version?: number): string[] {
    return ids(
      version === undefined
        ? this.work.stmt("SELECT id FROM runs WHERE workflow_id = ? AND kind = 'run' ORDER BY created_at, id").all(workflowId)
        : this.work.stmt("SELECT id FROM runs WHERE workflow_id = ? AND version = ? AND kind = 'run' ORDER BY created_at, id").all(workflowId, version),
    );
  }

  unfinishedRunIds(): string[] {
    return ids(this.work.stmt(`SELECT id FROM runs WHERE state NOT IN (${FINISHED_STATES_SQL}) AND kind = 'run' ORDER BY created_at, id`).all());
  }

  stepProjections(runId: string): StepProjection[] {
    return (this.work.stmt('SELECT step_id, activation, state, attempts, evidence_id FROM step_states WHERE run_id = ? ORDER BY step_id').raw().all(runId) as [string, number, string, number, string | null][]).map(
      ([stepId, activation, state, attempts, evidenceId]) => ({ stepId, activation, state, attempts, evidenceId }),
    );
  }

  runsWithoutRow(): string[] {
    return ids(
      this.work.stmt(`
      WITH RECURSIVE ids(id) AS (
        SELECT MIN(run_id) FROM events
        UNION ALL
        SELECT (SELECT MIN(run_id) FROM events WHERE run_id > ids.id) FROM ids WHERE ids.id IS NOT NULL
      )
      SELECT id FROM ids WHERE id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.id = ids.id)`).all(),
    );
  }
}

const ids = (rows: unknown[]): string[] => (rows as { id: string }[]).map((r) => r.id);

/** A run id as given, quoted for a message; a very long one is cut, with its length. */
function quoteRunId(id: string): string {
  return id.length > 60 ? `"${id.slice(0, 40)}…" (${id.length} characters)` : JSON.stringify(id);
}

function toRunRow([id, workflowId, version, state, inputRevision, createdAt, updatedAt]: RunColumns): RunRow {
  return { id, workflowId, version, state, inputRevision, createdAt, updatedAt };
}
