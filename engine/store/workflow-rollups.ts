// Per-workflow rollups of finished runs (migration 11): additive counters per (workflow, version)
// and one row per run of the durations percentiles are taken over, so that GET /api/stats reads
// a few hundred counter rows and a few numbers per run instead of every run's rollup
// (100,000 JSON parses). They mirror `run_metrics` (run-rollups.ts) exactly: a run's metrics are
// added in the same transaction that writes its rollup row, and subtracted (its samples row
// deleted) in the one that replaces or deletes that row, so the counters are always the sum over
// the rollup rows. Percentiles stay exact: the reader sorts every sample (rolled-up-stats.ts).
// A run's samples are one row of text, not one row per value in value order: a commit that
// finishes a run then dirties one page of samples rather than one per value (that was 26 more
// WAL pages per 10-step run), and a reader gets all of them as one JSON array.
import type { Statement } from './db.ts';
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';
import { UNFINISHED_STATES_SQL } from './run-state-sql.ts';
import type { Db } from './db.ts';
import { BUCKET_COLUMNS, CostRollups, stepCosts, type BucketWrite, type CostCounts } from './cost-rollups.ts';
import { MultiRow } from './multi-row.ts';
import { eachRollup } from './each-rollup.ts';

/**
 * A run's samples as stored: the items of a flat JSON array (a reader gets every run's at once,
 * joined by commas in SQLite, and parses one array: 100,000 rows, blobs or lines would cost far
 * more): the run's duration, then per step with samples its id, its active time (null when it
 * was not activated), how many latencies, and those latencies. A number where a step id would
 * be starts the next run.
 */
export function samplesText(m: RunMetrics): string {
  const items: unknown[] = [m.durationMs];
  for (const [id, s] of Object.entries(m.steps)) {
    if (s.activations === 0 && s.latenciesMs.length === 0) continue;
    items.push(id, s.activations > 0 ? s.activeMs : null, s.latenciesMs.length, ...s.latenciesMs);
  }
  return JSON.stringify(items).slice(1, -1);
}

/** Migration 11's tables (appended to migrations.ts); the backfill is backfillWorkflowRollups. */
export const WORKFLOW_ROLLUPS_SQL = `
  CREATE TABLE stat_runs (
    workflow_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    runs INTEGER NOT NULL,
    retried INTEGER NOT NULL,
    compensated INTEGER NOT NULL,
    intervened INTEGER NOT NULL,
    retries INTEGER NOT NULL,
    compensations INTEGER NOT NULL,
    interventions INTEGER NOT NULL,
    PRIMARY KEY (workflow_id, version, state)
  ) WITHOUT ROWID;
  CREATE TABLE stat_steps (
    workflow_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    step_id TEXT NOT NULL,
    outcome TEXT NOT NULL,
    listed INTEGER NOT NULL,
    runs INTEGER NOT NULL,
    activations INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    retries INTEGER NOT NULL,
    settled INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    PRIMARY KEY (workflow_id, version, step_id, outcome)
  ) WITHOUT ROWID;
  CREATE TABLE stat_edges (
    workflow_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    edge_id TEXT NOT NULL,
    listed INTEGER NOT NULL,
    decided INTEGER NOT NULL,
    taken INTEGER NOT NULL,
    taking INTEGER NOT NULL,
    PRIMARY KEY (workflow_id, version, edge_id)
  ) WITHOUT ROWID;
  CREATE TABLE stat_starts (
    workflow_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    minute INTEGER NOT NULL,
    runs INTEGER NOT NULL,
    succeeded INTEGER NOT NULL,
    retried INTEGER NOT NULL,
    compensated INTEGER NOT NULL,
    intervened INTEGER NOT NULL,
    PRIMARY KEY (workflow_id, version, minute)
  ) WITHOUT ROWID;
  CREATE TABLE stat_samples (
    workflow_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    samples TEXT NOT NULL,
    PRIMARY KEY (workflow_id, version, run_id)
  ) WITHOUT ROWID;
`;

/** stat_runs' counters, in order (the bucket's columns follow them from schema 20: cost-rollups.ts). */
const RUN_COUNTERS = ['runs', 'retried', 'compensated', 'intervened', 'retries', 'compensations', 'interventions'];

/** A finished run's stat_runs upsert: its counters alone, or with its cost's bucket added to the row's or set in its place. */
function runsUpsert(bucket: BucketWrite['mode'] | undefined): string {
  const columns = ['workflow_id', 'version', 'state', ...RUN_COUNTERS, ...(bucket === undefined ? [] : BUCKET_COLUMNS)];
  const sets = RUN_COUNTERS.map((c) => `${c} = ${c} + excluded.${c}`);
  if (bucket !== undefined) sets.push(...BUCKET_COLUMNS.map((c, k) => (k < 2 || bucket === 'set' ? `${c} = excluded.${c}` : `${c} = ${c} + excluded.${c}`)));
  return `INSERT INTO stat_runs (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO UPDATE SET ${sets.join(', ')}`;
}

const RUNS_UPSERT = { none: runsUpsert(undefined), add: runsUpsert('add'), set: runsUpsert('set') };

/** The tables above, in a store of schema 11 or later. */
const TABLES = ['stat_runs', 'stat_steps', 'stat_edges', 'stat_starts', 'stat_samples'];

const b = (x: boolean): number => (x ? 1 : 0);

/** The cost columns of a step row without cost. */
const NO_COST: CostCounts = [0, 0, 0, 0];

/** Counters of finished runs by version and state. */
export interface StateCounts {
  version: number;
  state: string;
  runs: number;
  retried: number;
  compensated: number;
  intervened: number;
  retries: number;
  compensations: number;
  interventions: number;
}

/** A step's counters by the outcome of its latest settlement in a run ('' while none). */
export interface StepCounts {
  stepId: string;
  outcome: string;
  /** Runs whose metrics list the step. */
  listed: number;
  /** Runs that activated it. */
  runs: number;
  activations: number;
  attempts: number;
  retries: number;
  /** Settled activations: how many latency samples. */
  settled: number;
  /** Runs that went wrong at it. */
  failures: number;
}

export interface EdgeCounts {
  edgeId: string;
  /** Runs whose metrics list the edge (it was decided in them). */
  listed: number;
  decided: number;
  taken: number;
  /** Runs that took it at least once. */
  taking: number;
}

/** Finished runs started in one UTC minute (epoch minute = floor(startedAt / 60,000)). */
export interface MinuteCounts {
  minute: number;
  runs: number;
  succeeded: number;
  retried: number;
  compensated: number;
  intervened: number;
}

export class WorkflowRollups {
  private readonly statements = new Map<string, Statement>();
  private present: boolean | undefined;
  private stepRows: MultiRow | undefined;
  private edgeRows: MultiRow | undefined;
  /** What finished runs cost, per day (and per step, in stat_steps), kept in step with the counters here. */
  readonly costs: CostRollups;

  constructor(private readonly db: Db) {
    this.costs = new CostRollups(db);
  }

  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (st === undefined) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  /**
   * Whether the store has the tables (schema 11). Asked once: a store opened at an older schema
   * (migration 10's build, tests that build old stores) keeps only its run rollups.
   */
  kept(): boolean {
    this.present ??= (this.db.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (${TABLES.map((t) => `'${t}'`).join(', ')})`).pluck().get() as number) === TABLES.length;
    return this.present;
  }

  /**
   * Adds (sign 1) or subtracts (sign -1) one finished run's metrics: call it in the transaction
   * that writes or deletes its `run_metrics` row, with the metrics that row holds (or held).
   */
  apply(m: RunMetrics, sign: 1 | -1): void {
    if (!this.kept()) return;
    const wf = m.workflowId;
    const v = m.version;
    const retried = b(m.retries > 0);
    const compensated = b(m.compensations > 0);
    const intervened = b(m.humanInterventions > 0);
    // The run's cost per day first: the last day may go to the bucket of the stat_runs row written here (cost-rollups.ts).
    const bucket = this.costs.apply(m, sign);
    const counts = [wf, v, m.state, sign, sign * retried, sign * compensated, sign * intervened, sign * m.retries, sign * m.compensations, sign * m.humanInterventions];
    if (bucket === undefined) this.stmt(RUNS_UPSERT.none).run(...counts);
    else this.stmt(RUNS_UPSERT[bucket.mode]).run(...counts, ...bucket.values);
    this.stmt(
      `INSERT INTO stat_starts VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET runs = runs + excluded.runs, succeeded = succeeded + excluded.succeeded,
       retried = retried + excluded.retried, compensated = compensated + excluded.compensated, intervened = intervened + excluded.intervened`,
    ).run(wf, v, Math.floor(m.startedAt / 60_000), sign, sign * b(m.state === 'succeeded'), sign * retried, sign * compensated, sign * intervened);
    const failedAt = m.failure?.step ?? null;
    // A step's cost goes in the columns of the row its counters go to (schema 18): no row more.
    const costed = this.costs.kept();
    const cost = costed && m.cost !== undefined ? stepCosts(m) : undefined;
    const costOf = (id: string): CostCounts | readonly [] => {
      if (!costed) return [];
      const c = cost?.get(id);
      cost?.delete(id);
      return c === undefined ? NO_COST : [sign * c[0], sign * c[1], sign * c[2], sign * c[3]];
    };
    const steps: unknown[][] = Object.entries(m.steps).map(([id, s]) => [
      wf, v, id, s.outcome ?? '', sign, sign * b(s.activations > 0), sign * s.activations, sign * s.attempts, sign * s.retries, sign * s.latenciesMs.length, sign * b(id === failedAt), ...costOf(id),
    ]);
    if (failedAt !== null && m.steps[failedAt] === undefined) steps.push([wf, v, failedAt, '', 0, 0, 0, 0, 0, 0, sign, ...costOf(failedAt)]);
    // Cost of a step the metrics do not list (none today): a row of its own, counters at zero.
    for (const id of [...(cost?.keys() ?? [])]) steps.push([wf, v, id, '', 0, 0, 0, 0, 0, 0, 0, ...costOf(id)]);
    this.stepRows ??= new MultiRow(
      this.db,
      'INSERT INTO stat_steps VALUES',
      costed ? 15 : 11,
      `ON CONFLICT DO UPDATE SET listed = listed + excluded.listed, runs = runs + excluded.runs, activations = activations + excluded.activations,
       attempts = attempts + excluded.attempts, retries = retries + excluded.retries, settled = settled + excluded.settled, failures = failures + excluded.failures${costed ? `,
       cost_micros = cost_micros + excluded.cost_micros, input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
       cost_attempts = cost_attempts + excluded.cost_attempts` : ''}`,
    );
    this.stepRows.run(steps);
    this.edgeRows ??= new MultiRow(
      this.db,
      'INSERT INTO stat_edges VALUES',
      7,
      'ON CONFLICT DO UPDATE SET listed = listed + excluded.listed, decided = decided + excluded.decided, taken = taken + excluded.taken, taking = taking + excluded.taking',
    );
    this.edgeRows.run(Object.entries(m.edges).map(([id, e]) => [wf, v, id, sign, sign * e.decided, sign * e.taken, sign * b(e.taken > 0)]));
    if (sign === 1) this.stmt('INSERT INTO stat_samples (workflow_id, version, run_id, samples) VALUES (?, ?, ?, ?)').run(wf, v, m.runId, samplesText(m));
    else this.stmt('DELETE FROM stat_samples WHERE workflow_id = ? AND version = ? AND run_id = ?').run(wf, v, m.runId);
  }

  // ---- reads ----

  private byVersion(sql: string, version: number | undefined, ...args: unknown[]): unknown[] {
    if (!this.kept()) return [];
    return version === undefined ? this.stmt(sql.replace('$V', '')).all(...args) : this.stmt(sql.replace('$V', 'AND version = ?')).all(...args, version);
  }

  /** Finished runs' counters by version and state. */
  states(workflowId: string, version?: number): StateCounts[] {
    return this.byVersion('SELECT version, state, runs, retried, compensated, intervened, retries, compensations, interventions FROM stat_runs WHERE workflow_id = ? $V AND runs <> 0', version, workflowId) as StateCounts[];
  }

  /** Steps' counters by outcome, summed over versions (or of one). */
  steps(workflowId: string, version?: number): StepCounts[] {
    return this.byVersion(
      `SELECT step_id AS stepId, outcome, sum(listed) AS listed, sum(runs) AS runs, sum(activations) AS activations, sum(attempts) AS attempts,
       sum(retries) AS retries, sum(settled) AS settled, sum(failures) AS failures FROM stat_steps WHERE workflow_id = ? $V GROUP BY step_id, outcome`,
      version,
      workflowId,
    ) as StepCounts[];
  }

  edges(workflowId: string, version?: number): EdgeCounts[] {
    return this.byVersion(
      'SELECT edge_id AS edgeId, sum(listed) AS listed, sum(decided) AS decided, sum(taken) AS taken, sum(taking) AS taking FROM stat_edges WHERE workflow_id = ? $V GROUP BY edge_id',
      version,
      workflowId,
    ) as EdgeCounts[];
  }

  /** First and last UTC minute in which a finished run started; undefined with none. */
  startSpan(workflowId: string, version?: number): { first: number; last: number } | undefined {
    const [row] = this.byVersion('SELECT min(minute) AS first, max(minute) AS last FROM stat_starts WHERE workflow_id = ? $V AND runs <> 0', version, workflowId) as { first: number | null; last: number | null }[];
    return row?.first == null || row.last == null ? undefined : { first: row.first, last: row.last };
  }

  /** Finished runs by start, grouped in buckets of `unitMs` whose edges are shifted by `shiftMs`: key = floor((start + shift) / unit). */
  startBuckets(workflowId: string, version: number | undefined, unitMs: number, shiftMs: number): (MinuteCounts & { bucket: number })[] {
    return this.byVersion(
      `SELECT (minute * 60000 + CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS bucket, 0 AS minute, sum(runs) AS runs, sum(succeeded) AS succeeded, sum(retried) AS retried, sum(compensated) AS compensated,
       sum(intervened) AS intervened FROM stat_starts WHERE workflow_id = ? $V GROUP BY bucket`,
      version,
      shiftMs,
      unitMs,
      workflowId,
    ) as (MinuteCounts & { bucket: number })[];
  }

  /** Every finished run's samples (samplesText), joined by commas; '' with none. */
  samples(workflowId: string, version?: number): string {
    if (!this.kept()) return '';
    const sql = "SELECT group_concat(samples, ',') FROM stat_samples WHERE workflow_id = ?";
    const text = (version === undefined ? this.stmt(sql).pluck().get(workflowId) : this.stmt(`${sql} AND version = ?`).pluck().get(workflowId, version)) as string | null;
    return text ?? '';
  }

  /** How many runs of the workflow (of one version if given) the store has. */
  runCount(workflowId: string, version?: number): number {
    const [row] = this.ofRuns("SELECT count(*) AS n FROM runs r WHERE r.workflow_id = ? AND r.kind = 'run' $V", version, workflowId) as { n: number }[];
    return row?.n ?? 0;
  }

  /** As byVersion, for reads of `runs` and `run_metrics` alone (schema 10 has them). */
  private ofRuns(sql: string, version: number | undefined, ...args: unknown[]): unknown[] {
    return version === undefined ? this.stmt(sql.replace('$V', '')).all(...args) : this.stmt(sql.replace('$V', 'AND r.version = ?')).all(...args, version);
  }

  /**
   * The runs without a rollup (still going; or a log that does not fold), oldest first. The runs
   * in an unfinished state are found by the state index; if they and the rolled-up runs do not
   * add up to all the workflow's runs, every run is checked for its rollup instead.
   */
  unrolledRuns(workflowId: string, version: number | undefined, rolledUp: number): string[] {
    // By the state index: there are few runs still going, however many have finished.
    const going = this.ofRuns(
      `SELECT r.id AS id FROM runs r INDEXED BY runs_by_state WHERE r.state IN (${UNFINISHED_STATES_SQL}) AND r.workflow_id = ? AND r.kind = 'run' $V AND NOT EXISTS (SELECT 1 FROM run_metrics m WHERE m.run_id = r.id) ORDER BY r.created_at, r.id`,
      version,
      workflowId,
    ) as { id: string }[];
    if (going.length + rolledUp === this.runCount(workflowId, version)) return going.map((r) => r.id);
    const all = this.ofRuns(
      "SELECT r.id AS id FROM runs r WHERE r.workflow_id = ? AND r.kind = 'run' $V AND NOT EXISTS (SELECT 1 FROM run_metrics m WHERE m.run_id = r.id) ORDER BY r.created_at, r.id",
      version,
      workflowId,
    ) as { id: string }[];
    return all.map((r) => r.id);
  }

  /** The newest `limit` runs (oldest first) with their rollups' JSON (null without one). */
  newestRuns(workflowId: string, version: number | undefined, limit: number): [string, string | null][] {
    const select = 'SELECT r.id AS id, m.metrics AS metrics FROM runs r LEFT JOIN run_metrics m ON m.run_id = r.id WHERE r.workflow_id = ? AND r.kind = \'run\'';
    const order = 'ORDER BY r.created_at DESC, r.id DESC LIMIT ?';
    const rows = (version === undefined ? this.stmt(`${select} ${order}`).all(workflowId, limit) : this.stmt(`${select} AND r.version = ? ${order}`).all(workflowId, version, limit)) as { id: string; metrics: string | null }[];
    return rows.reverse().map((r) => [r.id, r.metrics]);
  }
}

/** Migration 11: the counters and samples of every finished run already rolled up (migration 10). */
export function backfillWorkflowRollups(db: Db): void {
  const rollups = new WorkflowRollups(db);
  eachRollup(db, '', (m) => rollups.apply(m, 1));
}
