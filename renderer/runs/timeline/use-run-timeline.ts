// The data behind a run's timeline: the run's log, paged from the server (`GET
// /api/runs/:id/events`), folded in the page by the shared `timeline()` (shared/run/timeline.ts,
// the very walk `GET /api/runs/:id/timeline` serves) into the Timeline read model, and from it the
// view's model. The view draws after the first page (a 100,000-event log takes seconds to fold on
// the server and to send, the first page milliseconds) and the rest fills in as it pages.
// Live: whenever the run's known last seq (`lastSeq`, e.g. the run detail the runs store refetches
// as stream events arrive) passes what was read, the events after it are paged and folded: paging
// by seq leaves no gap and no duplicate, whatever the stream dropped.
import { useEffect, useRef, useState } from 'react';
import { timeline } from '../../../shared/run/timeline.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';
import type { TimelineReads } from '../../api/timeline-client.ts';
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

/** Pages between two model rebuilds while the log is paged in (each rebuild walks every event). */
const PAGES_PER_REBUILD = 16;
/**
 * A rebuild walks the whole log (100 ms or more at 100,000 events): the next waits this many times
 * as long as the last took, so a long live run that grows every moment spends at most a fifth of
 * the main thread on it and stays fluid. Waiting rebuilds coalesce into one, with the latest log.
 */
const REBUILD_SPACING = 4;

/**
 * @example
 * const lastSeq = useRuns((s) => s.details[id]?.run.lastSeq ?? null);
 * const { model, live } = useRunTimeline(id, timelineClient, lastSeq);
 */
export function useRunTimeline(runId: string, client: TimelineReads, lastSeq: number | null): RunTimelineState {
  const [state, setState] = useState<Omit<RunTimelineState, 'live'>>({ model: null, error: null, pagingEvents: true, eventsRead: 0 });
  const reader = useRef<LogReader | null>(null);

  useEffect(() => {
    const r = new LogReader(runId, client, (change) => setState((s) => ({ ...s, ...change })));
    reader.current = r;
    setState({ model: null, error: null, pagingEvents: true, eventsRead: 0 });
    r.catchUp();
    return () => r.stop();
  }, [runId, client]);

  useEffect(() => {
    if (lastSeq !== null) reader.current?.want(lastSeq);
  }, [lastSeq]);

  return { ...state, live: state.model !== null && state.model.endedMs === null };
}

/** Reads one run's log, one catch-up at a time; a newer `want` runs another after it. */
class LogReader {
  private readonly events: RunEvent[] = [];
  private seq = 0;
  private wanted = 0;
  private running = false;
  private stopped = false;
  private paging = true;
  private nextBuildAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly runId: string,
    private readonly client: TimelineReads,
    private readonly publish: (change: Partial<Omit<RunTimelineState, 'live'>>) => void,
  ) {}

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
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
        if (!this.stopped) this.publish({ error: error instanceof Error ? error.message : String(error), pagingEvents: false });
      },
    );
  }

  private async read(): Promise<void> {
    this.publish({ pagingEvents: true });
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
      // The first page at once (the first screen of rows), then every few pages.
      if (pages === 1 || pages % PAGES_PER_REBUILD === 0) this.rebuild(true);
    }
    this.rebuild(false);
  }

  private rebuild(paging: boolean): void {
    this.paging = paging;
    if (this.timer !== null) return;
    const wait = this.nextBuildAt - performance.now();
    if (wait <= 0) return this.build();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.build();
    }, wait);
  }

  private build(): void {
    if (this.stopped || this.events.length === 0) return;
    const started = performance.now();
    const model = buildTimelineModel(timeline(this.events), this.events);
    this.publish({ model, error: null, pagingEvents: this.paging, eventsRead: this.events.length });
    const done = performance.now();
    this.nextBuildAt = done + (done - started) * REBUILD_SPACING;
  }
}
