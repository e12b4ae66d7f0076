// What a step's next attempt continues from (docs/long-running.md#partial-completion): the part
// its latest partial attempt did and what it said remains. An automatic
// retry, an operator's retry and a loop's next pass all get it, from the fold alone, so an
// engine that restarts in between gives the same to the attempt it starts.
import { attemptId, type AttemptRecord, type StepRuntime } from './run-model.ts';

/** What an earlier partial attempt left for the one that continues it. */
export interface PartialSoFar {
  /** Its id, "STEP/ACTIVATION.ATTEMPT". */
  attempt: string;
  /** The part it did. */
  output: unknown;
  /** What it said remains, as its executor gave it. */
  remaining?: unknown;
}

/**
 * The partial attempt the step's next attempt continues: its latest partial attempt since it last
 * succeeded. Attempts after it that did not end partial (still running, interrupted by an engine
 * stop, failed, unknown, cancelled) reported nothing more of what they did, so the part done they
 * build on is still that one's; a success ends the chain (a later pass starts over).
 *
 * @example
 * partialSoFar(s) // { attempt: 'load/1.1', output: { done: 5 }, remaining: { from: 5 } }
 */
export function partialSoFar(s: Pick<StepRuntime, 'id' | 'attempts'>): PartialSoFar | undefined {
  for (let i = s.attempts.length - 1; i >= 0; i--) {
    const a = s.attempts[i] as AttemptRecord;
    if (a.state === 'succeeded') return undefined;
    if (a.state !== 'partial') continue;
    return { attempt: attemptId(s.id, a), output: a.output, ...(a.remaining === undefined ? {} : { remaining: a.remaining }) };
  }
  return undefined;
}

/**
 * A value as JSON in at most 120 characters, for a line of words (a reason, a next action).
 *
 * @example shortJson({ from: 5 }) // '{"from":5}'
 */
export function shortJson(v: unknown): string {
  const text = JSON.stringify(v) ?? 'null';
  return text.length <= 120 ? text : `${text.slice(0, 119)}…`;
}

/** Why a partial attempt ended as it did, in words for the log. */
export function partialReason(remaining: unknown): string {
  if (remaining === undefined) return 'the executor finished part of the work';
  return `the executor finished part of the work; remaining: ${shortJson(remaining)}`;
}
