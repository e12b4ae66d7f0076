// The run timeline: one row per step activation, one bar per span (attempts coloured by outcome,
// waits, queue and attention time each drawn their own way), markers for what happened from
// outside. Virtualized in rows (@tanstack/react-virtual: only the rows in view are in the DOM)
// and in time (a row draws only the bars in the visible window), so a run of 100,000 events stays
// fluid. Zoom: Ctrl/⌘+wheel, the +/- buttons or keys; pan: drag or Shift+wheel; hover shows the
// times; click or Enter selects. Arrow keys move between rows (up/down) and bars (left/right).
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { barAt, markerAt, msOf, rowKeyOf, ticksFor, xOf, type TimelineBar, type TimelineMarker, type TimelineModel, type TimelineRow } from './timeline-model.ts';
import { useTimeWindow } from './use-time-window.ts';
import { ROW_HEIGHT, rowDomId, TimelineRowView } from './timeline-row.tsx';
import { TimelineTooltip, type Hovered } from './timeline-tooltip.tsx';
import { LegendToggle, TimelineLegend } from './timeline-legend.tsx';
import { useTimelinePrefs } from './timeline-prefs.ts';
import './timeline.css';
import './timeline-markers.css';

export interface TimelineSelection {
  stepId: string;
  activation?: number;
  attempt?: number;
}

export interface TimelineProps {
  model: TimelineModel;
  selected: TimelineSelection | null;
  onSelect(selection: TimelineSelection | null): void;
  /** Where open spans end; for a live run, the clock (e.g. useNow). */
  nowMs: number;
  /** The run goes on: follow its right edge as it grows. */
  live: boolean;
  /** Time travel: the moment the page shows the run as of, drawn as a cursor; null for none. */
  cursorMs?: number | null;
}

const LABEL_WIDTH = 168;
const ZOOM_STEP = 1.5;
/** How near (px) a pointer must be to a bar or marker to hit it. */
const SLOP_PX = 4;
const DRAG_PX = 3;

export function Timeline({ model, selected, onSelect, nowMs, live, cursorMs = null }: TimelineProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [trackWidth, setTrackWidth] = useState(600);
  const time = useTimeWindow(model, nowMs, live);
  const legendOpen = useTimelinePrefs((s) => s.legendOpen);
  const { window: w } = time;
  const [hovered, setHovered] = useState<Hovered | null>(null);
  const [focus, setFocus] = useState({ row: 0, bar: -1 });
  const drag = useRef<{ x: number; startMs: number; endMs: number; moved: boolean } | null>(null);

  const rows = model.rows;
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });

  useEffect(() => {
    const el = scroller.current;
    if (el === null) return;
    const measure = () => setTrackWidth(Math.max(100, el.clientWidth - LABEL_WIDTH));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Wheel needs a non-passive listener to keep Ctrl+wheel from zooming the page.
  const wheel = useRef<(e: WheelEvent) => void>(() => {});
  wheel.current = (e: WheelEvent) => {
    const el = scroller.current;
    if (el === null) return;
    const x = e.clientX - el.getBoundingClientRect().left - LABEL_WIDTH;
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      time.zoom(Math.exp(e.deltaY * 0.002), x >= 0 ? msOf(x, w, trackWidth) : undefined);
    } else if (e.shiftKey) {
      e.preventDefault();
      const delta = e.deltaX !== 0 ? e.deltaX : e.deltaY;
      time.pan((delta / trackWidth) * (w.endMs - w.startMs));
    }
  };
  useEffect(() => {
    const el = scroller.current;
    if (el === null) return;
    const listener = (e: WheelEvent) => wheel.current(e);
    el.addEventListener('wheel', listener, { passive: false });
    return () => el.removeEventListener('wheel', listener);
  }, []);

  // A live run keeps its newest rows in view while the user has not scrolled up.
  const atBottom = useRef(true);
  useEffect(() => {
    const el = scroller.current;
    if (!live || el === null || !atBottom.current) return;
    el.scrollTop = el.scrollHeight;
  }, [rows.length, live]);

  // A selection made elsewhere (the graph, the detail) brings its row into view.
  const selectedIndex = useMemo(() => indexOfSelection(model, selected), [model, selected]);
  useEffect(() => {
    if (selectedIndex < 0) return;
    setFocus((f) => (f.row === selectedIndex ? f : { row: selectedIndex, bar: -1 }));
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    // Only when the selection itself changes, not on every growth of a live model.
  }, [selected?.stepId, selected?.activation]);

  /** What is under a point of the scroller: its row, and the bar or marker there. */
  const hit = (clientX: number, clientY: number): { index: number; row: TimelineRow; x: number; bar: TimelineBar | null; marker: TimelineMarker | null } | null => {
    const el = scroller.current;
    if (el === null) return null;
    const r = el.getBoundingClientRect();
    const index = Math.floor((clientY - r.top + el.scrollTop) / ROW_HEIGHT);
    const row = rows[index];
    if (row === undefined) return null;
    const x = clientX - r.left - LABEL_WIDTH;
    if (x < 0) return { index, row, x, bar: null, marker: null };
    const ms = msOf(x, w, trackWidth);
    const slop = (SLOP_PX / trackWidth) * (w.endMs - w.startMs);
    return { index, row, x, marker: markerAt(model, row.key, ms, slop), bar: barAt(row, ms, slop, nowMs) };
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    drag.current = { x: e.clientX, startMs: w.startMs, endMs: w.endMs, moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d !== null && (e.buttons & 1) === 1) {
      const dx = e.clientX - d.x;
      if (!d.moved && Math.abs(dx) < DRAG_PX) return;
      if (!d.moved) e.currentTarget.setPointerCapture(e.pointerId);
      d.moved = true;
      const shift = (-dx / trackWidth) * (d.endMs - d.startMs);
      time.set({ startMs: d.startMs + shift, endMs: d.endMs + shift });
      setHovered(null);
      return;
    }
    const h = hit(e.clientX, e.clientY);
    const el = scroller.current;
    if (h === null || el === null || (h.bar === null && h.marker === null)) {
      if (hovered !== null) setHovered(null);
      return;
    }
    const r = el.getBoundingClientRect();
    setHovered({ row: h.row, bar: h.marker === null ? h.bar : null, marker: h.marker, x: e.clientX - r.left, y: e.clientY - r.top + ROW_HEIGHT, flip: e.clientX - r.left > r.width - 360, above: e.clientY - r.top > r.height / 2 });
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d === null || d.moved) return;
    const h = hit(e.clientX, e.clientY);
    if (h === null) return;
    setFocus({ row: h.index, bar: h.bar === null ? -1 : h.row.bars.indexOf(h.bar) });
    select(h.row, h.bar);
  };

  const select = useCallback(
    (row: TimelineRow, bar: TimelineBar | null) => {
      if (row.stepId === null) return onSelect(null);
      onSelect({ stepId: row.stepId, ...(row.activation === null ? {} : { activation: row.activation }), ...(bar?.attempt == null ? {} : { attempt: bar.attempt }) });
    },
    [onSelect],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[focus.row];
    const move = (index: number) => {
      const next = Math.min(Math.max(index, 0), rows.length - 1);
      setFocus({ row: next, bar: -1 });
      virtualizer.scrollToIndex(next, { align: 'auto' });
    };
    const moveBar = (delta: number) => {
      if (row === undefined || row.bars.length === 0) return;
      const bar = Math.min(Math.max(focus.bar + delta, 0), row.bars.length - 1);
      setFocus({ row: focus.row, bar });
      const b = row.bars[bar];
      if (b !== undefined && (b.startMs > w.endMs || (b.endMs ?? nowMs) < w.startMs)) time.pan(b.startMs - (w.startMs + w.endMs) / 2);
    };
    const handled: Record<string, () => void> = {
      ArrowDown: () => move(focus.row + 1),
      ArrowUp: () => move(focus.row - 1),
      PageDown: () => move(focus.row + 10),
      PageUp: () => move(focus.row - 10),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      ArrowRight: () => moveBar(1),
      ArrowLeft: () => moveBar(-1),
      Enter: () => row !== undefined && select(row, row.bars[focus.bar] ?? null),
      '+': () => time.zoom(1 / ZOOM_STEP),
      '=': () => time.zoom(1 / ZOOM_STEP),
      '-': () => time.zoom(ZOOM_STEP),
      '0': () => time.fit(),
    };
    const action = handled[e.key];
    if (action === undefined) return;
    e.preventDefault();
    action();
  };

  const selectedKey = selected === null ? null : selected.activation === undefined ? null : rowKeyOf(selected.stepId, selected.activation);
  const ticks = ticksFor(w, trackWidth, model.startMs);
  const items = virtualizer.getVirtualItems();
  return (
    <div className="tl" data-testid="timeline" data-following={time.following || undefined}>
      <div className="tl-toolbar">
        <button type="button" className="button tl-zoom" aria-label="zoom out" title="zoom out (−, Ctrl+wheel)" onClick={() => time.zoom(ZOOM_STEP)} data-testid="timeline-zoom-out">
          −
        </button>
        <button type="button" className="button tl-zoom" aria-label="zoom in" title="zoom in (+, Ctrl+wheel)" onClick={() => time.zoom(1 / ZOOM_STEP)} data-testid="timeline-zoom-in">
          +
        </button>
        <button type="button" className="button" title="show the whole run (0)" onClick={time.fit} data-testid="timeline-fit">
          Fit
        </button>
        <span className="tl-range faint" data-testid="timeline-range" data-start={w.startMs} data-end={w.endMs}>
          {rows.length - 1} activation{rows.length === 2 ? '' : 's'}
          {live ? (time.following ? ' · following' : ' · live') : ''}
        </span>
        <LegendToggle />
      </div>
      <div className="tl-axis" style={{ marginLeft: LABEL_WIDTH }} aria-hidden="true">
        {ticks.map((t) => (
          <span key={t.ms} className="tl-tick" style={{ left: xOf(t.ms, w, trackWidth) }}>
            {t.label}
          </span>
        ))}
      </div>
      <div className="tl-frame">
        <div className="tl-grid" style={{ left: LABEL_WIDTH }} aria-hidden="true">
          {ticks.map((t) => (
            <span key={t.ms} className="tl-gridline" style={{ left: xOf(t.ms, w, trackWidth) }} />
          ))}
          {live ? <span className="tl-now" style={{ left: xOf(nowMs, w, trackWidth) }} /> : null}
          {cursorMs !== null ? <span className="tl-cursor" style={{ left: xOf(cursorMs, w, trackWidth) }} data-testid="timeline-cursor" /> : null}
        </div>
        <div
          ref={scroller}
          className="tl-scroll"
          tabIndex={0}
          role="listbox"
          aria-label="run timeline: arrow keys move, Enter selects, + and − zoom"
          aria-activedescendant={rows[focus.row] === undefined ? undefined : rowDomId(focus.row)}
          onKeyDown={onKeyDown}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => setHovered(null)}
          onScroll={(e) => {
            const el = e.currentTarget;
            atBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
          }}
          style={{ ['--tl-label-width' as string]: `${LABEL_WIDTH}px` }}
        >
          <div className="tl-rows" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index];
              if (row === undefined) return null;
              const isSelected = selected !== null && row.stepId === selected.stepId && (selectedKey === null || row.key === selectedKey);
              return (
                <TimelineRowView
                  key={row.key}
                  row={row}
                  index={item.index}
                  top={item.start}
                  window={w}
                  widthPx={trackWidth}
                  nowMs={nowMs}
                  markers={model.markersByRow.get(row.key)}
                  selected={isSelected}
                  selectedAttempt={isSelected ? (selected?.attempt ?? null) : null}
                  focused={item.index === focus.row}
                  focusedBar={item.index === focus.row ? focus.bar : -1}
                />
              );
            })}
          </div>
        </div>
        {hovered !== null ? <TimelineTooltip hovered={hovered} model={model} nowMs={nowMs} /> : null}
      </div>
      {legendOpen ? <TimelineLegend /> : null}
    </div>
  );
}

/** The row a selection points at: its activation's, else the step's latest activation. */
function indexOfSelection(model: TimelineModel, selected: TimelineSelection | null): number {
  if (selected === null) return -1;
  if (selected.activation !== undefined) return model.rowIndex.get(rowKeyOf(selected.stepId, selected.activation)) ?? -1;
  for (let i = model.rows.length - 1; i >= 0; i--) if (model.rows[i]?.stepId === selected.stepId) return i;
  return -1;
}
