// What each workflow spent per day (UTC, engine clock), for the daily budgets of a workspace
// policy (docs/budgets.md): `spend_by_day` (migration 14) holds one row per day and workflow, in
// millionths of the currency's unit (as sumCost adds), kept in the commit that writes the
// attempt events carrying a cost, so the sum can never disagree with the log. Admission reads the
// day's few rows instead of the attempt events of every run of the day.
import { toMicros } from '../../shared/cost/attempt-cost.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { BatchPart, PendingWrites, UnitOfWork } from './unit-of-work.ts';

/** Runs whose workflow afterWrite keeps before it starts again. */
const RUN_CACHE = 10_000;

/** Milliseconds in a day: a day is `Math.floor(at / DAY_MS)` (UTC). */
export const DAY_MS = 86_400_000;

const ATTEMPT_ENDS = ['attempt_succeeded', 'attempt_failed', 'attempt_unknown'] as const;

/** Migration 14's table. */
export const SPEND_BY_DAY_SQL = `
  CREATE TABLE spend_by_day (
    day INTEGER NOT NULL,
    workflow_id TEXT NOT NULL,
    micros INTEGER NOT NULL,
    PRIMARY KEY (day, workflow_id)
  ) WITHOUT ROWID;
  INSERT INTO spend_by_day (day, workflow_id, micros)
    SELECT e.at / ${DAY_MS}, r.workflow_id, SUM(CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER))
    FROM events e JOIN runs r ON r.id = e.run_id
    WHERE e.type IN (${ATTEMPT_ENDS.map((t) => `'${t}'`).join(', ')}) AND r.kind = 'run' AND json_extract(e.data, '$.meta.cost.amount') IS NOT NULL
    GROUP BY 1, 2;
`;

/** What was spent on one day: by the workflow asked about, and by the whole workspace (the store). */
export interface DaySpent {
  workflow: number;
  workspace: number;
}

/** What a commit adds to a day's spend of a workflow, in millionths. */
interface SpendAdded {
  day: number;
  workflowId: string;
  micros: number;
}

export class DaySpend implements BatchPart {
  readonly hasPending = false;
  /** The workflow of each run seen lately. */
  private readonly workflows = new Map<string, string>();
  /**
   * The rows of the day asked about last, as of `version` (SQLite's data_version, which moves when
   * another connection commits): this store's own commits add to them as they are written, so a
   * run's admission reads no row while nobody else wrote.
   */
  private cached: { day: number; version: number; micros: Map<string, number> } | undefined;

  constructor(private readonly work: UnitOfWork) {}

  /**
   * What was spent on `day` (a UTC day number, Math.floor(ms / DAY_MS)), as of the last commit.
   *
   * @example store.spend.on(Math.floor(clock.now() / DAY_MS), 'order-flow') // { workflow: 1.2, workspace: 4.75 }
   */
  on(day: number, workflowId: string): DaySpent {
    const version = this.work.stmt('PRAGMA data_version').pluck().get() as number;
    let c = this.cached;
    if (c === undefined || c.day !== day || c.version !== version) {
      const rows = this.work.stmt('SELECT workflow_id, micros FROM spend_by_day WHERE day = ?').raw().all(day) as [string, number][];
      this.cached = c = { day, version, micros: new Map(rows) };
    }
    let workspace = 0;
    for (const micros of c.micros.values()) workspace += micros;
    return { workflow: (c.micros.get(workflowId) ?? 0) / 1_000_000, workspace: workspace / 1_000_000 };
  }

  /**
   * Which of `runIds` wait for a daily budget now: their latest run_queued or run_dequeued is a
   * run_queued for budget. Read from the log (an indexed probe per run), for the runs list's mark.
   */
  waitingForBudget(runIds: readonly string[]): Set<string> {
    if (runIds.length === 0) return new Set();
    const marks = runIds.map(() => '?').join(', ');
    const rows = this.work.db.prepare(`
      SELECT e.run_id FROM events e
      WHERE e.run_id IN (${marks}) AND e.type = 'run_queued' AND json_extract(e.data, '$.for') = 'budget'
        AND e.seq = (SELECT max(x.seq) FROM events x WHERE x.run_id = e.run_id AND x.type IN ('run_queued', 'run_dequeued'))
    `).raw().all(...runIds) as [string][];
    return new Set(rows.map(([id]) => id));
  }

  take(): PendingWrites {
    let added: SpendAdded[] = [];
    return {
      rows: 0,
      write: ({ events }) => {
        added = this.afterWrite(events);
      },
      // Written: the day kept for admission has them too (what failed is in neither).
      committed: () => {
        const c = this.cached;
        if (c === undefined) return;
        for (const x of added) if (x.day === c.day) c.micros.set(x.workflowId, (c.micros.get(x.workflowId) ?? 0) + x.micros);
      },
    };
  }

  /**
   * Adds the costs of the batch's attempt events to their day and workflow (inside the commit): one
   * upsert per day and workflow of the batch (returned, for the day kept once committed), the workflow of each run looked up once and kept
   * (a run never changes workflow; the cache is cleared when it grows past RUN_CACHE runs).
   */
  private afterWrite(events: readonly RunEvent[]): SpendAdded[] {
    let added: Map<string, SpendAdded> | undefined;
    for (const e of events) {
      if (e.type !== 'attempt_succeeded' && e.type !== 'attempt_failed' && e.type !== 'attempt_unknown') continue;
      const amount = e.data.meta?.cost?.amount;
      if (amount === undefined || amount === 0) continue;
      const workflowId = this.workflowOf(e.runId);
      if (workflowId === undefined) continue;
      const day = Math.floor(e.at / DAY_MS);
      const key = `${day} ${workflowId}`;
      added ??= new Map();
      const x = added.get(key) ?? { day, workflowId, micros: 0 };
      x.micros += toMicros(amount);
      added.set(key, x);
    }
    if (added === undefined) return [];
    const add = this.work.stmt('INSERT INTO spend_by_day (day, workflow_id, micros) VALUES (?, ?, ?) ON CONFLICT (day, workflow_id) DO UPDATE SET micros = micros + excluded.micros');
    for (const x of added.values()) add.run(x.day, x.workflowId, x.micros);
    return [...added.values()];
  }

  /** The workflow of a run that counts toward budgets (a replay does not): undefined for none. Only found workflows are kept. */
  private workflowOf(runId: string): string | undefined {
    const known = this.workflows.get(runId);
    if (known !== undefined) return known;
    const row = this.work.stmt("SELECT workflow_id FROM runs WHERE id = ? AND kind = 'run'").raw().get(runId) as [string] | undefined;
    if (row === undefined) return undefined;
    if (this.workflows.size >= RUN_CACHE) this.workflows.clear();
    this.workflows.set(runId, row[0]);
    return row[0];
  }
}
