// Compensation, as pure decisions: a run that is to fail first offsets what its external steps
// did, one compensation step at a time, in reverse order of completion; it fails when all are
// offset. The scheduler emits what these decide (compensation_started, step_activated, the failure).
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import type { RunModel } from '../../shared/run/run-model.ts';

/** The steps to offset, latest completed first: succeeded external steps that name a compensation. */
export function compensationOrder(run: Pick<RunModel, 'steps'>, index: DefinitionIndex): string[] {
  return [...run.steps.values()]
    .filter((s) => {
      const step = index.steps.get(s.id);
      return step?.effect === 'external' && step.compensation !== undefined && s.outcome === 'succeeded';
    })
    .sort((a, b) => b.settledSeq - a.settledSeq)
    .map((s) => s.id);
}

export type CompensationStep =
  /** No compensation is under way. */
  | { kind: 'none' }
  /** Everything is offset: the run fails now. */
  | { kind: 'fail'; reason: string }
  /** The current compensation step is running, or needs a person. */
  | { kind: 'wait' }
  /** Start compensation step `by` to offset `compensates`. */
  | { kind: 'activate'; by: string; compensates: string; activation: number };

/**
 * The next move of a compensation under way; `reason` is why the run fails.
 *
 * @example nextCompensation(run, index, 'step "pay" failed') // { kind: 'activate', by: 'refund', compensates: 'pay', activation: 1 }
 */
export function nextCompensation(run: Pick<RunModel, 'steps' | 'compensation'>, index: DefinitionIndex, reason: string): CompensationStep {
  const c = run.compensation;
  if (c === null) return { kind: 'none' };
  const next = c.pending[0];
  if (next === undefined) return { kind: 'fail', reason: `${reason}; compensated ${c.done.join(', ')}` };
  const by = index.steps.get(next)?.compensation;
  const comp = by === undefined ? undefined : run.steps.get(by);
  if (by === undefined || comp === undefined) return { kind: 'wait' }; // the validator makes sure it exists
  if (comp.compensates === next && comp.state !== 'succeeded') return { kind: 'wait' }; // running, or needs a person
  return { kind: 'activate', by, compensates: next, activation: comp.activation + 1 };
}
