// The reads a run's revalidate checks ran first (`revalidate.fetch`, docs/long-running.md "A check
// that reads again"), as recorded answers from the outside world: each step_revalidated's
// `inputs.fetched`, in log order, under the attempt of the step whose check read. One home for
// what such a record answers, so a replay (replay-recordings.ts) plays it back and a scenario made
// from the run (run-to-scenario.ts) scripts it the same way.
import type { RunEvent } from '../../shared/events/run-event.ts';
import { attemptErrorCode } from '../../shared/events/attempt-error-codes.ts';
import { fetchedIn, readName, type Fetched } from '../../shared/run/revalidation-fetched.ts';
import type { PlainOutcome } from '../../shared/scenario/scripted-outcome-schema.ts';
import type { AttemptResult } from '../executors/executor.ts';
import type { RecordedCall } from './recorded-script.ts';

/** One read a check ran: the step and attempt it checked, that attempt's input hash, and what the read answered. */
export interface RecordedRead {
  step: string;
  activation: number;
  attempt: number;
  /** The input hash of the checked attempt (attempt_started's), '' when the log does not hold its start. */
  inputHash: string;
  fetched: Fetched;
  result: ReadResult;
}

/** What a read answers: an output, or a failure. */
export type ReadResult = Extract<AttemptResult, { outcome: 'succeeded' | 'failed' }>;

/**
 * What a recorded read answered, as an executor's result: its output, or a failure with its code
 * and message, never retried (a check reads once).
 *
 * @example readResult({ kind: 'http', ok: false, error: { code: 'http_503', message: 'down' }, durationMs: 40 })
 * // { outcome: 'failed', code: 'http_503', message: 'down', retryable: false }
 */
export function readResult(f: Fetched): ReadResult {
  return f.ok
    ? { outcome: 'succeeded', output: f.output }
    : { outcome: 'failed', code: attemptErrorCode(f.error?.code ?? 'failed'), message: f.error?.message ?? 'the read failed', retryable: false };
}

/**
 * A recorded read as a scenario's scripted answer (docs/scenarios.md): `succeed` with its output,
 * or `fail` with its code and message, taking as long as it took; a read cut short by its timeout
 * hangs (the scenario's engine times it out the same way, as for a step's call).
 *
 * @example readOutcome({ kind: 'http', ok: true, output: { status: 200 }, durationMs: 80 }) // { succeed: { status: 200 }, takeMs: 80 }
 */
export function readOutcome(f: Fetched): PlainOutcome {
  const r = readResult(f);
  const take = f.durationMs > 0 ? { takeMs: Math.round(f.durationMs) } : {};
  if (r.outcome === 'succeeded') return { succeed: r.output, ...take };
  if (r.code === 'timeout') return { hang: true };
  return { fail: r.code, message: r.message, retryable: false, ...take };
}

/** The reads of a run's checks, in the order its log recorded them. */
export function recordedReads(events: readonly RunEvent[]): RecordedRead[] {
  const hashes = new Map<string, string>();
  const key = (e: RunEvent): string => `${e.step ?? ''}\u0000${e.activation ?? 0}\u0000${e.attempt ?? 0}`;
  const out: RecordedRead[] = [];
  for (const e of events) {
    if (e.type === 'attempt_started') hashes.set(key(e), e.data.inputHash);
    if (e.type !== 'step_revalidated' || e.step === null) continue;
    const fetched = fetchedIn(e.data.inputs);
    if (fetched === undefined) continue;
    out.push({ step: e.step, activation: e.activation ?? 1, attempt: e.attempt ?? 1, inputHash: hashes.get(key(e)) ?? '', fetched, result: readResult(fetched) });
  }
  return out;
}

/**
 * The reads of a run's checks as calls a scenario scripts (recorded-script.ts's scriptOf), per
 * read name (`STEP.revalidate`), in the order the run made them, each under the activation and
 * attempt of the step it checked.
 *
 * @example for (const [name, calls] of readCalls(events)) steps[name] = scriptOf(calls); // steps['approve.revalidate']
 */
export function readCalls(events: readonly RunEvent[]): Map<string, RecordedCall[]> {
  const calls = new Map<string, RecordedCall[]>();
  for (const r of recordedReads(events)) {
    const name = readName(r.step);
    const list = calls.get(name) ?? [];
    list.push({ activation: r.activation, attempt: r.attempt, inputHash: r.inputHash, outcome: readOutcome(r.fetched) });
    calls.set(name, list);
  }
  return calls;
}
