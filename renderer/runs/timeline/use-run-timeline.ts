// The data behind a run's timeline: the Timeline read model first (the view draws as soon as it
// arrives), then the run's events paged in the background (attempt outcomes and markers fill in).
// Live: whenever the run's known last seq (`lastSeq`, e.g. the run detail the runs store refetches
// as stream events arrive) passes what was read, the events after it are paged and the timeline
// refetched: paging by seq leaves no gap and no duplicate, whatever the stream dropped.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Timeline } from '../../../shared/api/timeline.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';
import type { TimelineReads } from '../../api/timeline-client.ts';
import { buildTimelineModel, type TimelineModel } from './timeline-model.ts';

export interface RunTimelineState {
  model: TimelineModel | null;
  error: string | null;
  /** True while the run's events are still being paged in (markers and outcomes incomplete). */
  pagingEvents: boolean;
  /** The run has not ended: the view follows it. */
  live: boolean;
}

/** Pages between two model rebuilds while the log is paged in (each rebuild walks every span). */
const PAGES_PER_REBUILD = 20;

/**
 * @example
 * const lastSeq = useRuns((s) => s.details[id]?.run.lastSeq ?? null);
 * const { model, live } = useRunTimeline(id, timelineClient, lastSeq);
 */
export function useRunTimeline(runId: string, client: TimelineReads, lastSeq: number | null): RunTimelineState {
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  const [events, setEvents] = useState<readonly RunEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pagingEvents, setPaging] = useState(true);
  const reader = useRef<LogReader | null>(null);

  useEffect(() => {
    const r = new LogReader(runId, client, { setTimeline, setEvents, setError, setPaging });
    reader.current = r;
    setTimeline(null);
    setEvents([]);
    setError(null);
    r.catchUp();
    return () => r.stop();
  }, [runId, client]);

  useEffect(() => {
    if (lastSeq !== null) reader.current?.want(lastSeq);
  }, [lastSeq]);

  const model = useMemo(() => (timeline === null ? null : buildTimelineModel(timeline, events)), [timeline, events]);
  return { model, error, pagingEvents, live: timeline !== null && timeline.endedAtMs === null };
}

interface Sinks {
  setTimeline(t: Timeline): void;
  setEvents(e: readonly RunEvent[]): void;
  setError(e: string | null): void;
  setPaging(p: boolean): void;
}

/** Reads one run's timeline and log, one catch-up at a time; a newer `want` runs another after it. */
class LogReader {
  private readonly events: RunEvent[] = [];
  private seq = 0;
  private wanted = 0;
  private running = false;
  private stopped = false;

  constructor(
    private readonly runId: string,
    private readonly client: TimelineReads,
    private readonly sinks: Sinks,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  want(seq: number): void {
    this.wanted = Math.max(this.wanted, seq);
    if (seq > this.seq) this.catchUp();
  }

  catchUp(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    void this.read().then(
      () => {
        this.running = false;
        if (!this.stopped && this.wanted > this.seq) this.catchUp();
      },
      (error: unknown) => {
        this.running = false;
        if (!this.stopped) this.sinks.setError(error instanceof Error ? error.message : String(error));
      },
    );
  }

  private async read(): Promise<void> {
    const timeline = await this.client.timeline(this.runId);
    if (this.stopped) return;
    this.sinks.setTimeline(timeline);
    this.sinks.setPaging(true);
    let pages = 0;
    for (;;) {
      const page = await this.client.events(this.runId, this.seq);
      if (this.stopped) return;
      for (const event of page.events) {
        this.events.push(event);
        this.seq = event.seq;
      }
      pages += 1;
      if (page.next === null) break;
      if (pages % PAGES_PER_REBUILD === 0) this.sinks.setEvents([...this.events]);
    }
    this.sinks.setEvents([...this.events]);
    this.sinks.setError(null);
    this.sinks.setPaging(false);
    // Events committed after the timeline was read are in the log but not in its spans: read it again.
    if (timeline.endedAtMs === null && (this.events.at(-1)?.at ?? 0) > timeline.asOfMs) {
      const again = await this.client.timeline(this.runId);
      if (!this.stopped) this.sinks.setTimeline(again);
    }
  }
}
