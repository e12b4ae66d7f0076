// The run timeline's reads: `GET /api/runs/:id/timeline` (the spans) and the run's events page by
// page (`GET /api/runs/:id/events?after=&limit=`), for the attempt outcomes and markers. As in
// api-client.ts, every answer is parsed with its shared/api schema and an error body becomes an
// ApiError with its code, message and path.
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { z as zod } from 'zod';
import { EventPage, MAX_EVENT_PAGE } from '../../shared/api/event-page.ts';
import { RunEventRecord } from '../../shared/api/run-event-record.ts';
import { Timeline } from '../../shared/api/timeline.ts';
import { ApiError } from './api-client.ts';

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
    return this.get(`/api/runs/${encodeURIComponent(runId)}/timeline`, Timeline);
  }

  async events(runId: string, after: number, limit = MAX_EVENT_PAGE): Promise<RunEventsPage> {
    const page = await this.get(`/api/runs/${encodeURIComponent(runId)}/events?after=${after}&limit=${limit}`, AnyEventPage);
    return { events: page.events.map((e) => ('cursor' in e ? e.event : e)), next: page.next };
  }

  private async get<S extends zod.ZodType>(path: string, schema: S): Promise<zod.infer<S>> {
    const response = await fetch(`${this.base}${path}`, { headers: { authorization: `Bearer ${this.token}` } });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = ApiErrorBody.safeParse(body);
      if (error.success) throw new ApiError(response.status, error.data.error.code, error.data.error.message, error.data.error.path);
      throw new ApiError(response.status, 'http-error', `HTTP ${response.status} from ${path}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError(response.status, 'bad-answer', `the engine's answer to ${path} does not match the app's contract at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''} (is the app older or newer than the engine?)`);
    }
    return parsed.data;
  }
}
