// Events with their global cursor: a page of one run's log (`GET /api/runs/:id/events`) and the
// messages of the live stream (stream-messages.ts). The cursor is one number across all runs,
// growing with each commit, so a client that reconnects asks for everything after the last cursor
// it saw and gets no gap and no duplicate.
import { z } from 'zod';
import { RunEventRecord } from './run-event-record.ts';

/** A position in the store's global event order; 0 is before the first event. */
export const EventCursor = z.number().int().nonnegative();
export type EventCursor = z.infer<typeof EventCursor>;

/** One committed event and its global cursor. */
export const CursoredEvent = z.strictObject({ cursor: EventCursor, event: RunEventRecord });
export type CursoredEvent = z.infer<typeof CursoredEvent>;

/**
 * A page of one run's events in seq order. `next` is the seq to pass as `after` for the next
 * page, or null when the page reaches the end of the log as it stood.
 *
 * @example
 * EventPage.parse({ events: [], next: null });
 */
export const EventPage = z.strictObject({ events: z.array(CursoredEvent), next: z.number().int().nonnegative().nullable() });
export type EventPage = z.infer<typeof EventPage>;

/** Largest page a client may ask for. */
export const MAX_EVENT_PAGE = 1000;

/** Smallest and largest `elide` a client may ask for, in bytes. */
export const MIN_EVENT_ELIDE = 1024;
export const MAX_EVENT_ELIDE = 16 * 1024 * 1024;

/**
 * The query of `GET /api/runs/:id/events?after=&limit=&elide=` (query strings become numbers).
 * With `elide=N`, each value in an event's `data` whose JSON is over N bytes comes as an
 * ElidedValue stub whose path (`events[SEQ].data.output`) `GET /api/runs/:id/value` serves.
 */
export const EventPageQuery = z.strictObject({
  after: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(MAX_EVENT_PAGE).optional(),
  elide: z.coerce.number().int().min(MIN_EVENT_ELIDE).max(MAX_EVENT_ELIDE).optional(),
});
export type EventPageQuery = z.infer<typeof EventPageQuery>;

/**
 * The answer of `GET /api/runs/:id/events`: one run's events in seq order (each as the store
 * holds it, no global cursor), and `next`, the seq to pass as `after` for the next page, or null
 * at the end of the log as it stood.
 *
 * @example
 * RunEventsPage.parse({ events: [], next: null });
 */
export const RunEventsPage = z.strictObject({ events: z.array(RunEventRecord), next: z.number().int().nonnegative().nullable() });
export type RunEventsPage = z.infer<typeof RunEventsPage>;
