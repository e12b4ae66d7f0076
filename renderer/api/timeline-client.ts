// The run timeline's reads: `GET /api/runs/:id/timeline` (the spans) and the run's events page by
// page (`GET /api/runs/:id/events?after=&limit=`), for the attempt outcomes and markers. As in
// api-client.ts, every answer is parsed with its shared/api schema and an error body becomes an
// ApiError with its code, message and path.
import type { z } from 'zod';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { EventPage, MAX_EVENT_PAGE } from '../../shared/api/event-page.ts';
import { Timeline } from '../../shared/api/timeline.ts';
import { ApiError } from './api-client.ts';

/** What the timeline hook reads; TimelineClient is the real one. */
export interface TimelineReads {
  timeline(runId: string): Promise<Timeline>;
  /** One page of the run's events after seq `after` (0: from the start). */
  events(runId: string, after: number, limit?: number): Promise<EventPage>;
}

export class TimelineClient implements TimelineReads {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  timeline(runId: string): Promise<Timeline> {
    return this.get(`/api/runs/${encodeURIComponent(runId)}/timeline`, Timeline);
  }

  events(runId: string, after: number, limit = MAX_EVENT_PAGE): Promise<EventPage> {
    return this.get(`/api/runs/${encodeURIComponent(runId)}/events?after=${after}&limit=${limit}`, EventPage);
  }

  private async get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
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
