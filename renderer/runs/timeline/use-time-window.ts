// The timeline's visible time window: fitted to the run (and kept fitted as the run grows or its
// log pages in) until the user zooms or pans; then, for a run that goes on, following its right
// edge at the user's zoom while that edge stays in view. "Fit" fits again.
import { useCallback, useEffect, useRef, useState } from 'react';
import { extentOf, fitWindow, panWindow, zoomWindow, type TimelineModel, type TimeWindow } from './timeline-model.ts';

export interface TimeWindowControls {
  window: TimeWindow;
  following: boolean;
  zoom(factor: number, anchorMs?: number): void;
  pan(deltaMs: number): void;
  /** Sets the window outright (a drag pans from where it started). */
  set(w: TimeWindow): void;
  fit(): void;
}

export function useTimeWindow(model: TimelineModel, nowMs: number, live: boolean): TimeWindowControls {
  const [window, setWindow] = useState<TimeWindow>(() => fitWindow(model, nowMs));
  const [following, setFollowing] = useState(live);
  /** The user has zoomed or panned since the last fit. */
  const touched = useRef(false);
  const runId = useRef(model.runId);
  const extent = extentOf(model, nowMs);

  // Another run: start over, fitted.
  useEffect(() => {
    if (runId.current === model.runId) return;
    runId.current = model.runId;
    touched.current = false;
    setWindow(fitWindow(model, nowMs));
    setFollowing(live);
  }, [model, nowMs, live]);

  // Live: keep the run's right edge in view, at the same zoom, while following.
  const edge = extent.endMs;
  useEffect(() => {
    if (!touched.current) {
      setWindow(fitWindow(model, nowMs));
      return;
    }
    if (!live || !following) return;
    setWindow((w) => {
      const span = w.endMs - w.startMs;
      const endMs = edge + span * 0.02;
      return Math.abs(endMs - w.endMs) < span * 1e-4 ? w : { startMs: endMs - span, endMs };
    });
    // The window follows the edge, not every new model of the same extent.
  }, [edge, live, following]);

  const userMoved = useCallback(
    (next: TimeWindow) => {
      touched.current = true;
      setWindow(next);
      // Still following when the edge stays in view on the right.
      setFollowing(live && next.endMs >= edge && next.startMs < edge);
    },
    [edge, live],
  );
  const bounds = extent;
  const zoom = useCallback(
    (factor: number, anchorMs?: number) => {
      const anchor = anchorMs ?? (following && live ? edge : (window.startMs + window.endMs) / 2);
      userMoved(zoomWindow(window, factor, anchor, bounds));
    },
    [window, bounds, userMoved, following, live, edge],
  );
  const pan = useCallback((deltaMs: number) => userMoved(panWindow(window, deltaMs, bounds)), [window, bounds, userMoved]);
  const set = useCallback((w: TimeWindow) => userMoved(panWindow(w, 0, bounds)), [bounds, userMoved]);
  const fit = useCallback(() => {
    touched.current = false;
    setWindow(fitWindow(model, nowMs));
    setFollowing(live);
  }, [model, nowMs, live]);
  return { window, following, zoom, pan, set, fit };
}
