// Rollups of finished runs: each finished run's metrics (engine/metrics/run-metrics.ts), kept in
// `run_metrics` (migration 10) and written in the same transaction as the events that finish the
// run, so a rollup can never disagree with the log it was folded from: a crash loses both or
// neither. `weft stats` and GET /api/stats read these rows instead of folding every run's log
// (22.8 s over 100,000 runs); only runs still going, whose figures run on with the clock, are
// folded when asked. A finished run that gets another event (an operator's late act), or that is
// taken back to a running state (a retry), is folded again or loses its row, in that same commit.
import { isFinishedRunState } from '../../shared/definition/names.ts';
import { FINISHED_STATES_SQL } from './run-state-sql.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { runMetrics } from '../metrics/run-metrics.ts';
import type { Statement } from './db.ts';
import type { Db } from './db.ts';
import { WorkflowRollups } from './workflow-rollups.ts';
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';

/** A run's whole log, as the store reads it for the engine (Store.readRunLog). */
export type ReadRunLog = (runId: string) => readonly RunEvent[];

/** The rollup of one run of a workflow, in creation order: its metrics' JSON, or null while it is not finished. */
export type RolledUpRun = [runId: string, metricsJson: string | null];

export class RunRollups {
  private readonly statements = new Map<string, Statement>();
  /** The per-workflow counters and samples (migration 11), kept in step with the rows here. */
  readonly workflows: WorkflowRollups;

  constructor(
    private readonly db: Db,
    private readonly readLog: ReadRunLog,
  ) {
    this.workflows = new WorkflowRollups(db);
  }

  /** Prepared on first use: a store opened at an older schema (tests build them) has no table yet. */
  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (st === undefined) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  /** Writes the run's row; what its old row held is taken out of the workflow's counters, the new put in. */
  private upsert(runId: string, metrics: RunMetrics, json: string): void {
    const old = this.metricsOf(runId);
    if (old === json) return;
    if (old !== undefined) this.workflows.apply(JSON.parse(old) as RunMetrics, -1);
    this.stmt('INSERT INTO run_metrics (run_id, metrics) VALUES (?, ?) ON CONFLICT (run_id) DO UPDATE SET metrics = excluded.metrics').run(runId, json);
    this.workflows.apply(metrics, 1);
  }

  /** Deletes the run's row, and takes what it held out of the workflow's counters. */
  private remove(runId: string): void {
    const old = this.metricsOf(runId);
    if (old === undefined) return;
    this.workflows.apply(JSON.parse(old) as RunMetrics, -1);
    this.stmt('DELETE FROM run_metrics WHERE run_id = ?').run(runId);
  }

  private has(runId: string): boolean {
    return this.stmt('SELECT 1 FROM run_metrics WHERE run_id = ?').get(runId) !== undefined;
  }

  /**
   * Brings the rollups of the runs `events` belong to up to date; call it inside the transaction
   * that writes them, after they are written. A run the batch finishes is folded once (its log
   * read back by its index); one it moves to an unfinished state loses its row; one already
   * finished that gets more events is folded again. Others cost one index probe.
   */
  afterWrite(events: readonly RunEvent[]): void {
    // Per run: the state its last state change in the batch moves it to, or null without one.
    const moved = new Map<string, string | null>();
    for (const e of events) {
      if (e.type === 'run_state_changed') moved.set(e.runId, e.data.state);
      else if (!moved.has(e.runId)) moved.set(e.runId, null);
    }
    for (const [runId, state] of moved) {
      if (state === null) {
        if (this.has(runId)) this.refresh(runId);
      } else if (isFinishedRunState(state)) this.refresh(runId);
      else this.remove(runId);
    }
  }

  /** Folds the run's log again: its row holds the metrics when it is finished, else it has none. */
  refresh(runId: string): void {
    let metrics: RunMetrics | undefined;
    try {
      const m = runMetrics(this.readLog(runId));
      if (m.finished) metrics = m;
    } catch {
      // A log that does not fold (damaged) gets no rollup: a reader folds it and names the damage.
      metrics = undefined;
    }
    if (metrics === undefined) this.remove(runId);
    else this.upsert(runId, metrics, JSON.stringify(metrics));
  }

  /** A finished run's metrics as JSON; undefined for a run still going (or unknown). */
  metricsOf(runId: string): string | undefined {
    return (this.stmt('SELECT metrics FROM run_metrics WHERE run_id = ?').raw().get(runId) as [string] | undefined)?.[0];
  }

  /** The runs of a workflow (of one version if given), oldest first, with their rollups. */
  runsOf(workflowId: string, version?: number): RolledUpRun[] {
    const select = 'SELECT r.id, m.metrics FROM runs r LEFT JOIN run_metrics m ON m.run_id = r.id';
    const rows = version === undefined
      ? this.stmt(`${select} WHERE r.workflow_id = ? AND r.kind = 'run' ORDER BY r.created_at, r.id`).raw().all(workflowId)
      : this.stmt(`${select} WHERE r.workflow_id = ? AND r.version = ? AND r.kind = 'run' ORDER BY r.created_at, r.id`).raw().all(workflowId, version);
    return rows as RolledUpRun[];
  }
}

/** Migration 10: the rollups of every finished run of a store made before them. */
export function buildRunRollups(db: Db, readLog: ReadRunLog): void {
  const rollups = new RunRollups(db, readLog);
  const ids = db.prepare(`SELECT id FROM runs WHERE state IN (${FINISHED_STATES_SQL})`).raw().all() as [string][];
  for (const [id] of ids) rollups.refresh(id);
}
