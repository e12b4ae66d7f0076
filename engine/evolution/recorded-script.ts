// The outside world's answers of a stored run, as a scenario's scripted outcomes: every call a step
// that does work (agent, http, command, script, map, subworkflow) made, in call order, with what
// it answered and how long it took. Issue 22 part 2 ("a run becomes a test"); docs/evolution.md.
import type { StepKind } from '../../shared/definition/names.ts';
import { kindsWhere } from '../../shared/definition/step-kinds.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { PlainOutcome, CaseOutcome } from '../../shared/scenario/scripted-outcome-schema.ts';

/** The kinds a scenario scripts (engine/scenario/run-scenario.ts scripts the same ones). */
const SCRIPTED_KINDS: ReadonlySet<StepKind> = new Set(kindsWhere((k) => k.outside));

/** One call the step made in the run, and what the outside world answered. */
export interface RecordedCall {
  activation: number;
  attempt: number;
  inputHash: string;
  outcome: PlainOutcome;
}

/** The engine's verdicts on an output the call gave (docs/engine.md): the answer was that output. */
const CONTRACT_CODES: ReadonlySet<string> = new Set(['invalid_output', 'acceptance_not_met']);

interface Started {
  at: number;
  inputHash: string;
  timeoutMs: number | undefined;
}

/**
 * The calls of each scripted step, in the order the run made them. An attempt that never called
 * out is left out: its input could not be resolved (input_error), or it reused evidence of this
 * run. Evidence reused from another run was an answer this run got without calling: the scenario
 * has no other run, so it becomes a call answered with that output. A pinned output of a debug run
 * becomes the call's answer. An attempt cut short by the step's timeout, or by a cancel, hangs
 * (the scenario's engine times it out or cancels it the same way).
 */
export function recordedCalls(events: readonly RunEvent[], kindOf: (stepId: string) => StepKind | undefined): Map<string, RecordedCall[]> {
  const calls = new Map<string, RecordedCall[]>();
  const started = new Map<string, Started>();
  let cancelledAt: number | null = null;
  const key = (e: RunEvent): string => `${e.step ?? ''}/${e.activation ?? 0}.${e.attempt ?? 0}`;
  const add = (e: RunEvent, outcome: PlainOutcome, inputHash: string): void => {
    if (e.step === null) return;
    const list = calls.get(e.step) ?? [];
    list.push({ activation: e.activation ?? 1, attempt: e.attempt ?? 1, inputHash, outcome });
    calls.set(e.step, list);
  };
  const scripted = (e: RunEvent): boolean => e.step !== null && SCRIPTED_KINDS.has(kindOf(e.step) ?? 'end');
  for (const e of events) {
    if (e.type === 'operator_action' && e.data.action === 'cancel') cancelledAt = e.seq;
    if (!scripted(e)) continue;
    switch (e.type) {
      case 'attempt_started':
        if (e.data.inputHash !== '-') started.set(key(e), { at: e.at, inputHash: e.data.inputHash, timeoutMs: e.data.timeoutMs });
        break;
      case 'evidence_reused':
        if (e.data.from.runId !== e.runId) add(e, { succeed: e.data.output }, e.data.covers.inputHash);
        break;
      case 'attempt_succeeded':
      case 'attempt_failed':
      case 'attempt_unknown':
      case 'attempt_partial': {
        const s = started.get(key(e));
        if (s === undefined) break; // no call was made (input_error), or it started before this log
        started.delete(key(e));
        add(e, answerOf(e, s, cancelledAt !== null), s.inputHash);
        break;
      }
      default:
        break;
    }
  }
  // An attempt still open when the run ended (a cancel cut it off) never answered.
  for (const [k, s] of started) {
    const step = k.slice(0, k.lastIndexOf('/'));
    const [activation, attempt] = k.slice(k.lastIndexOf('/') + 1).split('.').map(Number);
    const list = calls.get(step) ?? [];
    list.push({ activation: activation ?? 1, attempt: attempt ?? 1, inputHash: s.inputHash, outcome: { hang: true } });
    calls.set(step, list);
  }
  return calls;
}

function answerOf(e: RunEvent<'attempt_succeeded' | 'attempt_failed' | 'attempt_unknown' | 'attempt_partial'>, s: Started, afterCancel: boolean): PlainOutcome {
  const tookMs = Math.max(0, Math.round(e.at - s.at));
  // A debug run's pinned output answered at once: the time between its events is the engine's own
  // scheduling (longer on a busy machine), not a call's, so the scripted answer takes none.
  const pinned = (e.type === 'attempt_succeeded' || e.type === 'attempt_failed') && e.data.pinned === true;
  const take = tookMs > 0 && !pinned ? { takeMs: tookMs } : {};
  const timedOut = s.timeoutMs !== undefined && tookMs >= s.timeoutMs;
  switch (e.type) {
    case 'attempt_succeeded':
      return { succeed: e.data.output, ...take };
    case 'attempt_failed': {
      const d = e.data;
      if (d.error.code === 'timeout' || timedOut) return { hang: true };
      if (d.error.code === 'aborted' && afterCancel) return { hang: true };
      // Work that ran but failed its contract: the answer was the output; the engine judges it again.
      if (d.output !== undefined && CONTRACT_CODES.has(d.error.code)) return { succeed: d.output, ...take };
      return { fail: d.error.code, message: d.error.message, retryable: d.retryable, ...take };
    }
    case 'attempt_unknown':
      if (timedOut || afterCancel) return { hang: true };
      return { unknown: e.data.error.message, ...take };
    case 'attempt_partial':
      return { partial: e.data.output, ...(e.data.remaining === undefined ? {} : { remaining: e.data.remaining }), ...take };
  }
}

/**
 * A step's calls as its script: a plain list in call order when every call was given the same
 * input (retries, an operator's retry of the same input), else one `cases` outcome that answers
 * each call by its activation and attempt (a loop's passes, a retry with a new input, a revised
 * input), with the last answer for any other call, as a plain list repeats its last.
 */
export function scriptOf(calls: readonly RecordedCall[]): (PlainOutcome | CaseOutcome)[] {
  const last = calls[calls.length - 1];
  if (last === undefined) return [];
  if (calls.every((c) => c.inputHash === last.inputHash)) return calls.map((c) => c.outcome);
  return [{
    cases: calls.map((c) => ({ when: `activation = ${c.activation} and attempt = ${c.attempt}`, then: c.outcome })),
    else: last.outcome,
  }];
}
