// What work cost, folded with the other metrics (docs/metrics.md, "Cost"): per run, its attempts'
// recorded cost and tokens per step and UTC day (RunCostFold, in runMetrics); per workflow, the
// totals, per successful run, per day and per step (CostAccumulator, fed run by run or from the
// per-workflow rollups' rows). Each attempt's amount is read with attemptCost and every sum is
// made with sumCost (shared/cost/attempt-cost.ts), so these totals are those `weft inspect` and
// budgets add up. A day is the UTC day the attempt ended, when its cost was fixed.
import type { CostDay, CostEntry, RunCostMetrics, StepCostStats, WorkflowCostStats } from '../../shared/api/cost-stats.ts';
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';
import type { AttemptMeta } from '../../shared/events/attempt-meta.ts';
import { attemptCost, attemptTokens, sumCost, toMicros } from '../../shared/cost/attempt-cost.ts';
import { UNIT_MS } from '../../shared/run/start-buckets.ts';

/** The last day utcDay named (its day number and words): a run's attempts mostly end on one day. */
let lastDay: [number, string] = [Number.NaN, ''];

/** The UTC day (YYYY-MM-DD) of epoch ms `at`. */
export function utcDay(at: number): string {
  const n = Math.floor(at / UNIT_MS.day);
  if (n !== lastDay[0]) lastDay = [n, new Date(at).toISOString().slice(0, 10)];
  return lastDay[1];
}

/** What an attempt adds: its cost and tokens, counted once. */
type Counted = Omit<CostEntry, 'step' | 'day'>;

const adds = (into: Counted, x: Counted): void => {
  into.total = sumCost([into.total, x.total]);
  into.inputTokens += x.inputTokens;
  into.outputTokens += x.outputTokens;
  into.attempts += x.attempts;
};

/** One run's attempts, by step and day, as its log is folded. */
export class RunCostFold {
  private readonly entries = new Map<string, CostEntry>();
  private currency: string | undefined;

  /** An attempt of `step` that ended at `at` with `meta`; one that recorded neither cost nor tokens adds nothing. */
  add(step: string, at: number, meta: AttemptMeta | undefined): void {
    if (meta?.cost === undefined && meta?.usage === undefined) return;
    const day = utcDay(at);
    const key = `${step}\u0000${day}`;
    let e = this.entries.get(key);
    if (e === undefined) this.entries.set(key, (e = { step, day, total: 0, inputTokens: 0, outputTokens: 0, attempts: 0 }));
    // As adds(), without the attempt's own object and sum array: it runs for every attempt of every run that finishes.
    const tokens = attemptTokens({ meta });
    e.total = (toMicros(e.total) + toMicros(attemptCost({ meta }))) / 1_000_000;
    e.inputTokens += tokens.inputTokens;
    e.outputTokens += tokens.outputTokens;
    e.attempts += 1;
    if (meta.cost !== undefined) this.currency ??= meta.cost.currency;
  }

  /** The run's cost; undefined when no attempt recorded a cost or tokens. */
  result(): RunCostMetrics | undefined {
    if (this.entries.size === 0) return undefined;
    const entries = [...this.entries.values()];
    const sum: Counted = { total: 0, inputTokens: 0, outputTokens: 0, attempts: 0 };
    for (const e of entries) adds(sum, e);
    return { total: sum.total, currency: this.currency ?? 'USD', inputTokens: sum.inputTokens, outputTokens: sum.outputTokens, entries };
  }
}

/** A workflow's cost, from runs' entries (addRun) or rollup rows (addDay, addStep). */
export class CostAccumulator {
  private readonly days = new Map<string, CostDay>();
  private readonly steps = new Map<string, StepCostStats>();
  private readonly all: Counted = { total: 0, inputTokens: 0, outputTokens: 0, attempts: 0 };
  private succeededTotal = 0;
  private currency: string | undefined;

  /** Attempts of one day (`YYYY-MM-DD`), of runs that succeeded or not, in `currency`: the day's figures and the totals. */
  addDay(day: string, x: Counted, succeeded: boolean, currency: string | undefined): void {
    if (x.attempts === 0) return;
    let d = this.days.get(day);
    if (d === undefined) this.days.set(day, (d = { day, total: 0, inputTokens: 0, outputTokens: 0, attempts: 0 }));
    adds(d, x);
    adds(this.all, x);
    if (succeeded) this.succeededTotal = sumCost([this.succeededTotal, x.total]);
    if (currency !== undefined && x.total > 0) this.currency ??= currency;
  }

  /** Attempts of one step: its figures only (addDay counts the totals). */
  addStep(stepId: string, x: Counted): void {
    if (x.attempts === 0) return;
    let step = this.steps.get(stepId);
    if (step === undefined) this.steps.set(stepId, (step = { stepId, total: 0, inputTokens: 0, outputTokens: 0, attempts: 0 }));
    adds(step, x);
  }

  /** Every entry of a run's metrics. */
  addRun(r: RunMetrics): void {
    for (const e of r.cost?.entries ?? []) {
      const x: Counted = { total: e.total, inputTokens: e.inputTokens, outputTokens: e.outputTokens, attempts: e.attempts };
      this.addDay(e.day, x, r.state === 'succeeded', r.cost?.currency);
      this.addStep(e.step, x);
    }
  }

  /** The figures, given how many runs succeeded (the divisor of the per-success figures). */
  stats(succeededRuns: number): WorkflowCostStats {
    const per = (amount: number): number | null => (succeededRuns === 0 ? null : sumCost([amount / succeededRuns]));
    return {
      total: this.all.total,
      currency: this.currency ?? 'USD',
      inputTokens: this.all.inputTokens,
      outputTokens: this.all.outputTokens,
      perSuccessfulRun: per(this.succeededTotal),
      perSuccess: per(this.all.total),
      days: [...this.days.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)),
      steps: [...this.steps.values()].sort((a, b) => b.total - a.total || b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens) || (a.stepId < b.stepId ? -1 : 1)),
    };
  }
}
