// Which steps a retry, fork, revision or replay will bill again, and about how much: one pure
// function over a run's recorded attempts and the steps the act's own plan runs again
// (engine/runtime/rebill-plan.ts asks the retry's reopen plan, the fork plan and the revision
// plan). Each step's estimate is what its latest attempt with a recorded cost cost; every sum goes
// through sumCost (attempt-cost.ts). docs/runs.md, "Billed again", says what is listed.
import type { RebillAction, RebillEstimate, RebillStep } from './rebill-estimate.ts';
import type { StepKind } from '../definition/names.ts';
import type { AttemptMeta } from '../events/attempt-meta.ts';
import { attemptCost, sumCost } from './attempt-cost.ts';
import { formatCost } from './run-cost.ts';

/** A step the act will run again: for sure ('runs again'), or only if the path leads to it ('if reached'). */
export interface RebillCandidate {
  stepId: string;
  when: RebillStep['when'];
}

/** What the estimate reads of a run: its steps' attempts (a RunModel's or a RunDetail's) and its definition's steps. */
export interface RebillRun {
  steps: Iterable<{ id: string; attempts: readonly { meta?: AttemptMeta | null | undefined }[] }>;
  workflow: { steps: readonly { id: string; kind: StepKind; cost?: { perCall: number } | undefined }[] };
}

/** What a replay says instead of a list: it bills nothing. */
export const REPLAY_NOTE = 'a replay uses the recorded answers of every step: nothing is billed again';

/**
 * The estimate for `action` on `run`, given the steps its plan runs again. A step is listed when
 * its latest attempt with a recorded cost cost more than nothing, or when none recorded a cost and
 * it is an agent or declares a cost per call ("cost unknown"); a free step is not listed.
 *
 * @example
 * rebillEstimate('retry', run, [{ stepId: 'draft', when: 'runs again' }])
 * // { action: 'retry', steps: [{ stepId: 'draft', kind: 'agent', estimate: 0.012, basis: 'last attempt', when: 'runs again' }], total: 0.012, upTo: 0.012, currency: 'USD' }
 */
export function rebillEstimate(action: RebillAction, run: RebillRun, candidates: readonly RebillCandidate[]): RebillEstimate {
  if (action === 'replay') return { action, steps: [], total: 0, upTo: 0, currency: null, note: REPLAY_NOTE };
  const defs = new Map(run.workflow.steps.map((s) => [s.id, s]));
  const attemptsOf = new Map([...run.steps].map((s) => [s.id, s.attempts]));
  const steps: RebillStep[] = [];
  let currency: string | null = null;
  const seen = new Set<string>();
  for (const c of candidates) {
    const def = defs.get(c.stepId);
    if (def === undefined || seen.has(c.stepId)) continue;
    seen.add(c.stepId);
    const last = [...(attemptsOf.get(c.stepId) ?? [])].reverse().find((a) => a.meta?.cost !== undefined);
    if (last === undefined) {
      if (def.kind === 'agent' || def.cost !== undefined) steps.push({ stepId: c.stepId, kind: def.kind, estimate: null, basis: 'unknown', when: c.when });
      continue;
    }
    const estimate = attemptCost({ meta: last.meta ?? undefined });
    if (estimate === 0) continue;
    currency ??= last.meta?.cost?.currency ?? null;
    steps.push({ stepId: c.stepId, kind: def.kind, estimate, basis: 'last attempt', when: c.when });
  }
  const known = (all: boolean): number => sumCost(steps.filter((s) => all || s.when === 'runs again').map((s) => s.estimate ?? 0));
  return { action, steps, total: known(false), upTo: known(true), currency };
}

/** "$0.012, last attempt", "if reached, $0.004, last attempt", "cost unknown": what one listed step says. */
export function rebillStepText(s: RebillStep, currency: string | null): string {
  const cost = s.estimate === null ? 'cost unknown' : `${formatCost(s.estimate, currency ?? 'USD')}, last attempt`;
  return s.when === 'if reached' ? `if reached, ${cost}` : cost;
}

/**
 * The estimate as one line: `weft retry` and `weft fork` print it before they act, `weft revise`
 * with its plan.
 *
 * @example
 * rebillLine(estimate) // "billed again: draft ($0.012, last attempt), review (cost unknown); about $0.012"
 */
export function rebillLine(e: RebillEstimate): string {
  if (e.note !== undefined) return `billed again: nothing (${e.note})`;
  if (e.steps.length === 0) return 'billed again: nothing (no step that runs again recorded a cost, and none is an agent or declares one)';
  const list = e.steps.map((s) => `${s.stepId} (${rebillStepText(s, e.currency)})`).join(', ');
  return `billed again: ${list}; ${rebillTotalText(e)}`;
}

/** "about $0.012", "about $0.012, up to $0.016 if every step is reached", "cost unknown (…)". */
export function rebillTotalText(e: RebillEstimate): string {
  if (e.steps.every((s) => s.estimate === null)) return 'cost unknown (none of their attempts recorded one)';
  const more = e.upTo > e.total ? `, up to ${formatCost(e.upTo, e.currency ?? 'USD')} if every step is reached` : '';
  const unknown = e.steps.some((s) => s.estimate === null) ? ' plus what the steps of unknown cost bill' : '';
  return `about ${formatCost(e.total, e.currency ?? 'USD')}${more}${unknown}`;
}
