// The page the timeline's browser test (and its screenshots) drive, as source for esbuild (resolved
// from the repository's root): <Timeline> over a model built from a synthetic log by the shared
// timeline() fold, as the server builds it. window.harness lets the test grow the log (a live
// run), swap in a 100,000-event run and read the selections. Plain text because this project's
// test code is type-checked without the DOM library; the component itself is type-checked. It ends
// with mountable(), so one page serves every test, the harness mounted anew for each.

import { mountable } from '../browser-harness.ts';

export const TIMELINE_HARNESS = `
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { timeline } from './shared/run/timeline.ts';
import type { RunEvent } from './shared/events/run-event.ts';
import { buildTimelineModel } from './renderer/runs/timeline/timeline-model.ts';
import { Timeline, type TimelineSelection } from './renderer/runs/timeline/timeline.tsx';
import { loopRun, mixedRun } from './test/renderer/timeline/synthetic-run.ts';

/** A fixed day, so clock times in the tooltip are known: 2024-03-01 09:00:00 local. */
const BASE = new Date(2024, 2, 1, 9, 0, 0).getTime();

function showcase(): RunEvent[] {
  const log = mixedRun();
  // notify gets its event; an operator retries it after an escalation; the run needs attention meanwhile.
  log.add('attempt_succeeded', 6000, { output: 1, evidenceId: 'e3', covers: { inputHash: 'h', definitionVersion: 1, inputRevision: 1 } }, { step: 'notify', activation: 1, attempt: 1 });
  log.add('step_settled', 6000, { outcome: 'succeeded', edges: [] }, { step: 'notify', activation: 1 });
  log.add('step_activated', 6000, {}, { step: 'charge', activation: 1 });
  log.add('attempt_started', 6200, { inputHash: 'h', input: null, variant: null, effect: 'external' }, { step: 'charge', activation: 1, attempt: 1 });
  log.add('attempt_unknown', 7000, { error: { code: 'timeout', message: 'no answer' } }, { step: 'charge', activation: 1, attempt: 1 });
  log.add('step_escalated', 7000, { outcome: 'unknown' }, { step: 'charge', activation: 1, reason: 'effect may have happened' });
  log.add('run_state_changed', 7000, { state: 'needs_attention' });
  log.add('operator_action', 8500, { action: 'retry', by: 'ann' }, { step: 'charge', reason: 'checked with the bank' });
  log.add('run_state_changed', 8500, { state: 'running' });
  log.add('step_activated', 8500, {}, { step: 'charge', activation: 2 });
  log.add('attempt_started', 8600, { inputHash: 'h', input: null, variant: null, effect: 'external' }, { step: 'charge', activation: 2, attempt: 1 });
  log.add('attempt_succeeded', 9200, { output: 1, evidenceId: 'e4', covers: { inputHash: 'h', definitionVersion: 1, inputRevision: 2 } }, { step: 'charge', activation: 2, attempt: 1 });
  log.add('step_settled', 9200, { outcome: 'succeeded', edges: [] }, { step: 'charge', activation: 2 });
  return log.events.map((e) => ({ ...e, at: e.at + BASE }));
}

interface Harness {
  selections: (TimelineSelection | null)[];
  setSelected(s: TimelineSelection | null): void;
  /** Appends a quick step activation ms after the log's last event and moves the clock there. */
  grow(ms: number): void;
  useBig(): void;
  setLive(live: boolean): void;
}

declare global {
  interface Window {
    harness: Harness;
  }
}

function App() {
  const [events, setEvents] = useState<RunEvent[]>(showcase);
  const [selected, setSelected] = useState<TimelineSelection | null>(null);
  const [live, setLive] = useState(true);
  const [nowMs, setNow] = useState(BASE + 10_000);
  const model = useMemo(() => buildTimelineModel(timeline(events, nowMs), events), [events, nowMs]);
  window.harness = {
    selections: window.harness?.selections ?? [],
    setSelected,
    setLive,
    grow(ms) {
      setEvents((before) => {
        const at = Math.max(before.at(-1)?.at ?? BASE, nowMs) + ms;
        const seq = before.length;
        const step = 'grown_' + seq;
        const where = { runId: 'r1', step, activation: 1, reason: null };
        const covers = { inputHash: 'h', definitionVersion: 1, inputRevision: 1 };
        setNow(at + 100);
        return [
          ...before,
          { ...where, seq: seq + 1, at, type: 'step_activated', attempt: null, data: {} },
          { ...where, seq: seq + 2, at, type: 'attempt_started', attempt: 1, data: { inputHash: 'h', input: null, variant: null, effect: 'none' } },
          { ...where, seq: seq + 3, at: at + 50, type: 'attempt_succeeded', attempt: 1, data: { output: 1, evidenceId: 'g' + seq, covers } },
        ];
      });
    },
    useBig() {
      const big = loopRun(12_500).map((e) => ({ ...e, at: e.at + BASE }));
      setEvents(big);
      setLive(false);
      setNow((big.at(-1)?.at ?? BASE) + 1);
    },
  };
  return (
    <div style={{ height: '100vh', padding: 12, boxSizing: 'border-box', background: 'var(--bg)' }}>
      <Timeline
        model={model}
        selected={selected}
        onSelect={(s) => {
          window.harness.selections.push(s);
          setSelected(s);
        }}
        nowMs={nowMs}
        live={live}
      />
    </div>
  );
}

${mountable('<StrictMode><App /></StrictMode>')}`;
