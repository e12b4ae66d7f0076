// The data behind a run's timeline: the run's log, read through the one events query of the run
// (core/run-queries.ts: paged in from `GET /api/runs/:id/events`, appended to by the stream, the
// same log time travel steps through), folded in the page by the shared `timeline()`
// (shared/run/timeline.ts, the very walk `GET /api/runs/:id/timeline` serves) into the Timeline
// read model, and from it the view's model. The view draws after the first page (a
// 100,000-event log takes seconds to fold on the server and to send, the first page milliseconds),
// without waiting for the run's detail, and the rest fills in as it pages.
// Live: the stream appends the run's events; whenever the run's known last seq (`lastSeq`, from
// its detail) passes what was read, the events after it are paged and folded: paging by seq
// leaves no gap and no duplicate, whatever the stream dropped.
import { useEffect, useRef, useState } from 'react';
import { timeline } from '../../../shared/run/timeline.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';
import { MAX_EVENT_PAGE } from '../../../shared/api/event-page.ts';
import type { TimelineReads } from '../../api/timeline-client.ts';
import { useRunEvents } from '../../core/run-queries.ts';
import { buildTimelineModel, type TimelineModel } from './timeline-model.ts';

export interface RunTimelineState {
  model: TimelineModel | null;
  error: string | null;
  /** True while the log is still being paged in (later rows and markers still to come). */
  pagingEvents: boolean;
  /** Events read so far. */
  eventsRead: number;
  /** The run has not ended: the view follows it. */
  live: boolean;
}

/** Events read between two model rebuilds while the log is paged in (each rebuild walks every event). */
const EVENTS_PER_REBUILD = 16 * MAX_EVENT_PAGE;
/**
 * A rebuild walks the whole log (100 ms or more at 100,000 events): the next waits this many times
 * as long as the last took, so a long live run that grows every moment spends at most a fifth of
 * the main thread on it and stays fluid. Waiting rebuilds coalesce into one, with the latest log.
 */
const REBUILD_SPACING = 4;

/**
 * The run's timeline model, built from its log as it is paged in; with `pageOn` false only from
 * the log's first page (core/run-queries.ts, useRunEvents).
 *
 * @example
 * const lastSeq = useRunDetail(id).data?.run.lastSeq ?? null;
 * const { model, live } = useRunTimeline(id, requireClients().timeline, lastSeq);
 */
export function useRunTimeline(runId: string, reads: TimelineReads, lastSeq: number | null, pageOn = true): RunTimelineState {
  const log = useRunEvents(runId, reads, lastSeq, pageOn);
  const [built, setBuilt] = useState<{ runId: string; model: TimelineModel; eventsRead: number } | null>(null);
  const builder = useRef<ModelBuilder | null>(null);
  useEffect(() => {
    const b = new ModelBuilder((model, eventsRead) => setBuilt({ runId, model, eventsRead }));
    builder.current = b;
    return () => b.stop();
  }, [runId]);
  useEffect(() => {
    builder.current?.offer(log.events, log.paging);
  }, [log.events, log.paging]);
  const model = built?.runId === runId ? built.model : null;
  return {
    model,
    error: log.error,
    pagingEvents: log.paging || (built?.eventsRead ?? 0) < log.events.length,
    eventsRead: built?.runId === runId ? built.eventsRead : 0,
    live: model !== null && model.endedMs === null,
  };
}

/** Folds the latest log into the model: the first page at once, then spaced out as above. */
class ModelBuilder {
  private latest: readonly RunEvent[] = [];
  private built = 0;
  private nextBuildAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(private readonly publish: (model: TimelineModel, eventsRead: number) => void) {}

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }

  offer(events: readonly RunEvent[], paging: boolean): void {
    this.latest = events;
    if (events.length === 0 || events.length === this.built) return;
    if (paging && this.built > 0 && events.length - this.built < EVENTS_PER_REBUILD) return;
    if (this.timer !== null) return;
    const wait = this.nextBuildAt - performance.now();
    if (wait <= 0) return this.build();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.build();
    }, wait);
  }

  private build(): void {
    if (this.stopped || this.latest.length === 0) return;
    const started = performance.now();
    const events = this.latest;
    this.built = events.length;
    this.publish(buildTimelineModel(timeline(events), events), events.length);
    const done = performance.now();
    this.nextBuildAt = done + (done - started) * REBUILD_SPACING;
  }
}
