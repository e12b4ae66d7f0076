// `GET /api/runs/:id/timeline`: where a run's time went, as spans per step activation and attempt.
// Built by shared/run/timeline.ts on the event walk that engine/metrics/run-metrics.ts uses too
// (shared/run/time-spans.ts): `totals` are RunMetrics' activeMs, waitingMs, queueMs, attentionMs.
import { z } from 'zod';

/**
 * What a span is: an attempt at work (running), a retry's backoff, a wait for a person, an event,
 * a timer or child runs, a step or run waiting for a slot (queued), or a run that waits on an
 * operator (needs_attention, paused).
 */
export const SPAN_KINDS = ['running', 'retry_wait', 'waiting_person', 'waiting_event', 'waiting_timer', 'waiting_child', 'queued', 'needs_attention', 'paused'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

/** One span; step, activation and attempt are null where the span is the whole run's. */
export const TimelineSpan = z.strictObject({
  kind: z.enum(SPAN_KINDS),
  step: z.string().nullable(),
  activation: z.number().int().positive().nullable(),
  attempt: z.number().int().positive().nullable(),
  startMs: z.number(),
  /** Null while the span is still open at `asOfMs`. */
  endMs: z.number().nullable(),
  /** The event reason that opened it, e.g. the error code a retry waits after. */
  why: z.string().nullable(),
});
export type TimelineSpan = z.infer<typeof TimelineSpan>;

/**
 * A run's timeline as of `asOfMs`.
 *
 * @example
 * Timeline.parse({ runId, startedAtMs, endedAtMs: null, asOfMs, spans: [], totals: { activeMs: 0, waitingMs: 0, queueMs: 0, attentionMs: 0 } });
 */
export const Timeline = z.strictObject({
  runId: z.string(),
  startedAtMs: z.number(),
  endedAtMs: z.number().nullable(),
  asOfMs: z.number(),
  spans: z.array(TimelineSpan),
  totals: z.strictObject({
    activeMs: z.number().nonnegative(),
    waitingMs: z.number().nonnegative(),
    queueMs: z.number().nonnegative(),
    attentionMs: z.number().nonnegative(),
  }),
});
export type Timeline = z.infer<typeof Timeline>;
