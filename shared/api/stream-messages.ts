// The messages of `WS /api/stream`. The client subscribes to some runs or all, from a cursor;
// the server answers with every committed event after it, in commit order, as `{cursor, event}`.
// A client too slow to keep up is told to resync: it pages the missed events over HTTP from its
// last cursor and subscribes again.
import { z } from 'zod';
import { RunId } from './api-ids.ts';
import { CursoredEvent, EventCursor, MAX_EVENT_ELIDE, MIN_EVENT_ELIDE } from './event-page.ts';
import { ApiErrorBody } from './api-error.ts';
import { DETAIL_VALUE_LIMIT } from './elided-value.ts';

/** Values over this many bytes come as stubs unless a subscription says otherwise (64 KiB, as in RunDetail). */
export const STREAM_ELIDE = DETAIL_VALUE_LIMIT;

/** Longest list of runs one subscription names; beyond it, subscribe to "all" and filter. */
export const MAX_SUBSCRIBED_RUNS = 1000;

/**
 * Client → server: what to receive, and from where (`after`: the last cursor seen; omitted, only
 * events committed from now on). A new subscribe replaces the previous one.
 *
 * @example
 * StreamSubscribe.parse({ subscribe: { runs: 'all' }, after: 1042 });
 */
export const StreamSubscribe = z.strictObject({
  subscribe: z.strictObject({ runs: z.union([z.literal('all'), z.array(RunId).min(1).max(MAX_SUBSCRIBED_RUNS)]) }),
  after: EventCursor.optional(),
  /** Receive events as StreamBatch frames (several events a frame) instead of one frame each. */
  batch: z.boolean().optional(),
  /**
   * Values in an event's data over this many bytes come as ElidedValue stubs (paths
   * `events[SEQ].data.KEY`), as in `GET /api/runs/:id/events?elide=`; default STREAM_ELIDE.
   */
  elide: z.number().int().min(MIN_EVENT_ELIDE).max(MAX_EVENT_ELIDE).optional(),
});
export type StreamSubscribe = z.infer<typeof StreamSubscribe>;

/** Server → client: one committed event. */
export const StreamEvent = CursoredEvent;
export type StreamEvent = z.infer<typeof StreamEvent>;

/**
 * Server → client, for a subscription with `batch: true`: the events committed since the last
 * frame, in commit order. A fast engine commits thousands of events a second; one frame per
 * engine turn costs the engine far less than one frame per event.
 */
export const StreamBatch = z.strictObject({ events: z.array(CursoredEvent).min(1) });
export type StreamBatch = z.infer<typeof StreamBatch>;

/**
 * Server → client: the client fell behind (or the server restarted) and no more events come on
 * this subscription. Page what was missed from `after` and subscribe again.
 */
export const StreamResync = z.strictObject({ resync: z.strictObject({ after: EventCursor, reason: z.string() }) });
export type StreamResync = z.infer<typeof StreamResync>;

/** Server → client: the subscription is active; events after `cursor` follow. */
export const StreamSubscribed = z.strictObject({ subscribed: z.strictObject({ cursor: EventCursor }) });

/** Every message the server sends: an event, a resync, a confirmation, or an error (a bad subscribe). */
export const StreamServerMessage = z.union([StreamEvent, StreamBatch, StreamResync, StreamSubscribed, ApiErrorBody]);
export type StreamServerMessage = z.infer<typeof StreamServerMessage>;
