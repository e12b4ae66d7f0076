// What a live run has spent, kept as its events are folded (engine-core's emit), for the budget
// check before each attempt of a billed step (shared/run/run-budget.ts): runSpend walks every
// step's attempts, and asked before each attempt of every run it was the largest part of what
// budgets cost a run of many steps with many runs in flight (docs/policies.md, "What it costs the
// engine"). The amounts are runSpend's own: each step's attempts' recorded costs, in millionths.
import type { RunEvent } from '../../shared/events/run-event.ts';
import { attemptsMicros } from '../../shared/cost/attempt-cost.ts';
import { META_EVENTS } from '../../shared/events/attempt-meta.ts';
import type { LiveRun } from './live-run.ts';

/** What the run has spent, in the currency's unit (as runSpend): worked out from its model when not kept. */
export function spentOf(live: LiveRun): number {
  let kept = live.spent;
  if (kept === undefined) {
    kept = { micros: 0, byStep: new Map() };
    for (const s of live.model.steps.values()) {
      const micros = attemptsMicros(s.attempts);
      if (micros !== 0) kept.byStep.set(s.id, micros);
      kept.micros += micros;
    }
    live.spent = kept;
  }
  return kept.micros / 1_000_000;
}

/**
 * Keeps the spend up to date with an event just folded into the run's model: an attempt's end
 * changes its step's; an event of the run as a whole (a migration, a revision) may change any
 * step, so the spend is worked out again when next asked.
 */
export function noteSpend(live: LiveRun, e: RunEvent): void {
  const kept = live.spent;
  if (kept === undefined) return;
  if (e.step === undefined || e.step === null) {
    live.spent = undefined;
    return;
  }
  if (!META_EVENTS.has(e.type)) return;
  const s = live.model.steps.get(e.step);
  const micros = s === undefined ? 0 : attemptsMicros(s.attempts);
  kept.micros += micros - (kept.byStep.get(e.step) ?? 0);
  kept.byStep.set(e.step, micros);
}
