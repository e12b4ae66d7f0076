// The run page's split between the graph (above) and the timeline (below): a separator the user
// drags, or moves with the arrow keys once focused (Home and End for the smallest and the largest
// timeline), whose place is remembered (timeline-prefs.ts). The timeline keeps room for its
// toolbar and a row or two; the graph keeps room to be seen.
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { defaultTimelineHeight, useTimelinePrefs } from './timeline-prefs.ts';
import './timeline.css';
import './timeline-markers.css';
import './timeline-split.css';

const MIN_HEIGHT = 96;
/** What the split leaves above the timeline: the run's head and a graph still worth a look. */
const GRAPH_ROOM = 220;
const KEY_STEP = 24;
const PAGE_STEP = 120;

const clamp = (v: number, low: number, high: number): number => Math.max(low, Math.min(Math.max(low, high), v));

/** The timeline's frame under the graph, with the separator that resizes it on top. */
export function TimelineFrame({ children }: { children: ReactNode }) {
  const stored = useTimelinePrefs((s) => s.height);
  const frame = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState<number | null>(null);
  const [dragging, setDragging] = useState<{ startY: number; startHeight: number; height: number } | null>(null);

  // The largest timeline the page allows: its parent's height less the graph's room.
  useLayoutEffect(() => {
    const parent = frame.current?.parentElement;
    if (parent === null || parent === undefined) return;
    const measure = () => setRoom(parent.clientHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(parent);
    return () => observer.disconnect();
  }, []);

  const max = room === null ? Number.POSITIVE_INFINITY : Math.max(MIN_HEIGHT, room - GRAPH_ROOM);
  const height = clamp(dragging?.height ?? stored ?? defaultTimelineHeight(room ?? 0), MIN_HEIGHT, max);
  const setHeight = (px: number) => useTimelinePrefs.getState().setHeight(clamp(px, MIN_HEIGHT, max));

  const onKeyDown = (event: KeyboardEvent) => {
    const next: Record<string, number> = { ArrowUp: height + KEY_STEP, ArrowDown: height - KEY_STEP, PageUp: height + PAGE_STEP, PageDown: height - PAGE_STEP, Home: MIN_HEIGHT, End: max };
    const to = next[event.key];
    if (to === undefined) return;
    event.preventDefault();
    setHeight(to);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    setDragging({ startY: event.clientY, startHeight: height, height });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging === null) return;
    setDragging({ ...dragging, height: clamp(dragging.startHeight - (event.clientY - dragging.startY), MIN_HEIGHT, max) });
  };
  const onPointerUp = () => {
    if (dragging === null) return;
    setHeight(dragging.height);
    setDragging(null);
  };

  return (
    <>
      <div
        className="tl-split"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize the timeline"
        aria-controls="run-timeline-frame"
        aria-valuenow={Math.round(height)}
        aria-valuemin={MIN_HEIGHT}
        aria-valuemax={Number.isFinite(max) ? Math.round(max) : undefined}
        aria-valuetext={`timeline ${Math.round(height)} pixels tall`}
        tabIndex={0}
        title="Drag, or use the arrow keys, to share the height between the graph and the timeline"
        data-dragging={dragging === null ? undefined : 'true'}
        data-testid="timeline-split"
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      />
      <div className="run-bottom" id="run-timeline-frame" ref={frame} style={{ height }}>
        {children}
      </div>
    </>
  );
}
