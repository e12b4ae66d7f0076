// A run's timeline (`GET /api/runs/:id/timeline`): its spans per step activation and attempt,
// and the totals the run's metrics report, both from the same walk (time-spans.ts).
import type { Timeline } from '../api/timeline.ts';
import type { RunEvent } from '../events/run-event.ts';
import { isTerminal } from './run-status.ts';
import { splitTime, TimeSpans } from './time-spans.ts';

/**
 * The timeline of one run from its log (seq order). `asOf` closes nothing: spans still open at
 * the end of a run that goes on keep `endMs: null`, and totals count them up to `asOf` (default:
 * the last event's time). A finished run's spans end by its end.
 *
 * @example
 * timeline(events, clock.now()).totals.activeMs; // equals runMetrics(events, asOf).activeMs
 */
export function timeline(events: readonly RunEvent[], asOf?: number): Timeline {
  const first = events[0];
  if (first?.type !== 'run_created') throw new Error('a run log starts with its run_created event; this one does not');
  const time = new TimeSpans();
  for (const e of events) time.apply(e);
  const finished = isTerminal(time.state);
  const end = time.end(finished, asOf);
  const split = splitTime(time.spans, first.at, end);
  return {
    runId: first.runId,
    startedAtMs: first.at,
    endedAtMs: finished ? time.stateAt : null,
    asOfMs: end,
    spans: time.spans.map((s) => {
      const endMs = s.end === null ? (finished ? end : null) : Math.min(s.end, end);
      return { kind: s.kind, step: s.step, activation: s.activation, attempt: s.attempt, startMs: Math.min(s.start, endMs ?? s.start), endMs, why: s.why };
    }),
    totals: { activeMs: split.active, waitingMs: split.waiting, queueMs: split.queued, attentionMs: end - first.at - split.active - split.waiting - split.queued },
  };
}
