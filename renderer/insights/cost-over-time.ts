// The cost card's figures from the report's `stats.cost` (docs/insights.md, "Cost"): one point per
// UTC day from the first day with a cost to the last, a day with none a zero (so a quiet day
// reads as such), and the most expensive steps with their share of the total.
import type { WorkflowCostStats } from '../../shared/api/cost-stats.ts';
import { sumCost } from '../../shared/cost/attempt-cost.ts';

export interface CostPoint {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** "Dec 2": the axis label. */
  label: string;
  total: number;
  inputTokens: number;
  outputTokens: number;
  attempts: number;
}

export interface CostStepRow {
  stepId: string;
  total: number;
  /** Of the workflow's total, 0..1 (0 when the total is 0). */
  share: number;
  attempts: number;
  /** What one of its attempts cost on average. */
  perAttempt: number;
  inputTokens: number;
  outputTokens: number;
}

const DAY_MS = 86_400_000;
/** At most this many days are drawn: the newest. */
export const COST_DAYS = 90;

const label = (day: string): string => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Every UTC day from the first with a cost to the last (the newest COST_DAYS of them).
 *
 * @example
 * costOverTime({ days: [{ day: '2026-01-01', total: 0.03, ... }, { day: '2026-01-03', total: 0.01, ... }], ... })
 * // three points: Jan 1 $0.03, Jan 2 $0, Jan 3 $0.01
 */
export function costOverTime(cost: WorkflowCostStats): CostPoint[] {
  const first = cost.days[0];
  const last = cost.days[cost.days.length - 1];
  if (first === undefined || last === undefined) return [];
  const byDay = new Map(cost.days.map((d) => [d.day, d]));
  const to = Date.parse(`${last.day}T00:00:00Z`);
  const from = Math.max(Date.parse(`${first.day}T00:00:00Z`), to - (COST_DAYS - 1) * DAY_MS);
  const points: CostPoint[] = [];
  for (let t = from; t <= to; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const d = byDay.get(day);
    points.push({ day, label: label(day), total: d?.total ?? 0, inputTokens: d?.inputTokens ?? 0, outputTokens: d?.outputTokens ?? 0, attempts: d?.attempts ?? 0 });
  }
  return points;
}

/** The `limit` most expensive steps, as the report ranks them. */
export function costlySteps(cost: WorkflowCostStats, limit: number): CostStepRow[] {
  return cost.steps.slice(0, limit).map((s) => ({
    stepId: s.stepId,
    total: s.total,
    share: cost.total === 0 ? 0 : s.total / cost.total,
    attempts: s.attempts,
    perAttempt: s.attempts === 0 ? 0 : sumCost([s.total / s.attempts]),
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
  }));
}
