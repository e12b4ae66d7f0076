import { call } from './http.ts';
// The run timeline's reads: `GET /api/runs/:id/timeline` (the spans) and the run's events page by
// page (`GET /api/runs/:id/events?after=&limit=`), for the attempt outcomes and markers. As in
// api-client.ts, every answer is parsed with its shared/api schema and an error body becomes an
// ApiError with its code, message and path.
import { z as zod } from 'zod';
import { DETAIL_VALUE_LIMIT } from '../../shared/api/elided-value.ts';
import { EventPage, MAX_EVENT_PAGE } from '../../shared/api/event-page.ts';
import { RunEventRecord } from '../../shared/api/run-event-record.ts';
import { Timeline } from '../../shared/api/timeline.ts';

/**
 * docs/api.md documents `GET /api/runs/:id/events` as an EventPage of `{cursor, event}`; the
 * server (engine/server/create-server.ts) answers with the bare events today. Both are read, so the
 * timeline works with the server as it is and as documented.
 */
const AnyEventPage = zod.union([EventPage, zod.strictObject({ events: zod.array(RunEventRecord), next: zod.number().int().nonnegative().nullable() })]);

/** A page of a run's events (seq order) and the seq to page on from, or null at the end. */
export interface RunEventsPage {
  events: RunEventRecord[];
  next: number | null;
}

/** What the timeline hook reads; TimelineClient is the real one. */
export interface TimelineReads {
  timeline(runId: string): Promise<Timeline>;
  /** One page of the run's events after seq `after` (0: from the start). */
  events(runId: string, after: number, limit?: number): Promise<RunEventsPage>;
}

export class TimelineClient implements TimelineReads {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  timeline(runId: string): Promise<Timeline> {
    return call(this.base, this.token, `/api/runs/${encodeURIComponent(runId)}/timeline`, Timeline);
  }

  async events(runId: string, after: number, limit = MAX_EVENT_PAGE): Promise<RunEventsPage> {
    // Values over 64 KiB come as stubs (fetched by path when shown), so a run whose events hold
    // megabytes opens as fast as one that holds none.
    const page = await call(this.base, this.token, `/api/runs/${encodeURIComponent(runId)}/events?after=${after}&limit=${limit}&elide=${DETAIL_VALUE_LIMIT}`, AnyEventPage);
    return { events: page.events.map((e) => ('cursor' in e ? e.event : e)), next: page.next };
  }

}
