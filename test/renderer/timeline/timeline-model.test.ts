import { describe, expect, it } from 'vitest';
import { timeline } from '../../../shared/run/timeline.ts';
import {
  barAt,
  barsInWindow,
  buildTimelineModel,
  extentOf,
  fitWindow,
  markerAt,
  msOf,
  panWindow,
  RUN_ROW,
  ticksFor,
  xOf,
  zoomWindow,
} from '../../../renderer/runs/timeline/timeline-model.ts';
import { LogWriter, loopRun, mixedRun } from './synthetic-run.ts';

describe('buildTimelineModel', () => {
  it('makes a row per activation in start order, a bar per span, outcomes per attempt', () => {
    const log = mixedRun();
    const model = buildTimelineModel(timeline(log.events, 7000), log.events);
    expect(model.rows.map((r) => r.key)).toEqual([RUN_ROW, 'fetch/1', 'review/1', 'notify/1']);
    const fetch = model.rows[1];
    expect(fetch?.bars.map((b) => [b.kind, b.startMs, b.endMs, b.attempt, b.outcome])).toEqual([
      ['queued', 1000, 1100, null, null],
      ['running', 1100, 1600, 1, 'failed'],
      ['retry_wait', 1600, 2600, 2, null],
      ['running', 2600, 3000, 2, 'succeeded'],
    ]);
    expect(fetch?.bars[2]?.why).toBe('http_503');
    expect(model.rows[2]?.bars.map((b) => [b.kind, b.outcome])).toEqual([
      ['queued', null],
      ['waiting_person', 'succeeded'],
    ]);
    // Still waiting at asOf: open, drawn to now.
    expect(model.rows[3]?.bars.at(-1)).toMatchObject({ kind: 'waiting_event', endMs: null, outcome: 'open' });
    expect(model.endedMs).toBeNull();
    expect(model.asOfMs).toBe(7000);
  });

  it("carries each attempt's cost on its bars and an activation's total on its row", () => {
    const log = new LogWriter();
    log.created(1000);
    const cost = (amount: number) => ({ meta: { usage: { inputTokens: 10, outputTokens: 2 }, cost: { amount, currency: 'EUR', basis: 'tokens' as const } } });
    log.add('step_activated', 1000, {}, { step: 'ask', activation: 1 });
    log.add('attempt_started', 1000, { inputHash: 'h', input: null, variant: null, effect: 'none' }, { step: 'ask', activation: 1, attempt: 1 });
    log.add('attempt_failed', 1200, { error: { code: 'invalid_json_reply', message: 'not JSON' }, retryable: true, ...cost(0.1) }, { step: 'ask', activation: 1, attempt: 1 });
    log.add('retry_scheduled', 1200, { nextAttempt: 2, dueAt: 1300, delayMs: 100 }, { step: 'ask', activation: 1, reason: 'not JSON' });
    log.add('attempt_started', 1300, { inputHash: 'h', input: null, variant: null, effect: 'none' }, { step: 'ask', activation: 1, attempt: 2 });
    log.add('attempt_succeeded', 1500, { output: 1, evidenceId: 'e', covers: { inputHash: 'h', definitionVersion: 1, inputRevision: 1 }, ...cost(0.2) }, { step: 'ask', activation: 1, attempt: 2 });
    log.add('step_settled', 1500, { outcome: 'succeeded', edges: [] }, { step: 'ask', activation: 1 });
    log.add('step_activated', 1500, {}, { step: 'free', activation: 1 });
    log.add('attempt_started', 1500, { inputHash: 'h', input: null, variant: null, effect: 'none' }, { step: 'free', activation: 1, attempt: 1 });
    log.add('attempt_succeeded', 1600, { output: 1, evidenceId: 'f', covers: { inputHash: 'h', definitionVersion: 1, inputRevision: 1 } }, { step: 'free', activation: 1, attempt: 1 });
    const model = buildTimelineModel(timeline(log.events, 2000), log.events);
    const ask = model.rows[model.rowIndex.get('ask/1') ?? -1];
    expect(ask?.bars.filter((b) => b.kind === 'running').map((b) => b.cost)).toEqual([{ amount: 0.1, currency: 'EUR' }, { amount: 0.2, currency: 'EUR' }]);
    expect(ask?.bars.find((b) => b.kind === 'retry_wait')?.cost).toBeNull();
    expect(ask?.cost).toEqual({ amount: 0.3, currency: 'EUR' });
    expect(model.rows[model.rowIndex.get('free/1') ?? -1]?.cost).toBeNull();
    expect(model.rows[0]?.cost).toBeNull();
  });

  it('puts markers on their activation row, run-wide ones on the run row', () => {
    const log = mixedRun();
    log.add('operator_action', 6500, { action: 'retry', by: 'bob' }, { step: 'ghost', activation: 9, reason: 'try again' });
    const model = buildTimelineModel(timeline(log.events, 7000), log.events);
    expect(model.markers.map((m) => [m.kind, m.rowKey, m.atMs])).toEqual([
      ['restart', RUN_ROW, 4000],
      ['revision', RUN_ROW, 4500],
      ['operator', 'review/1', 5000],
      ['event', 'notify/1', 6000],
      // Its activation has no spans: shown on the run's row rather than lost.
      ['operator', RUN_ROW, 6500],
    ]);
    expect(model.markers[4]?.label).toBe('bob: retry ghost: try again');
    expect(model.markers[1]?.label).toBe('input revised (revision 2): typo');
    expect(markerAt(model, 'notify/1', 6010, 20)?.kind).toBe('event');
    expect(markerAt(model, 'notify/1', 6100, 20)).toBeNull();
  });

  it('shows escalations and the run needing attention', () => {
    const log = new LogWriter();
    log.created(0);
    log.quickStep('a', 1, 0, 10);
    log.add('step_escalated', 20, { outcome: 'failed' }, { step: 'a', activation: 1, reason: 'out of retries' });
    log.add('run_state_changed', 20, { state: 'needs_attention' });
    const model = buildTimelineModel(timeline(log.events, 100), log.events);
    expect(model.rows[0]?.bars.map((b) => [b.kind, b.startMs, b.endMs])).toEqual([['needs_attention', 20, null]]);
    expect(model.markers).toMatchObject([{ kind: 'escalation', rowKey: 'a/1', label: 'a escalated (failed): out of retries' }]);
  });

  it('marks an escalation by a workspace policy on the step, naming the person and the rule', () => {
    const log = new LogWriter();
    log.created(0);
    log.quickStep('a', 1, 0, 10);
    log.add('policy_escalated', 30, { rule: 'page-ops', to: 'ops-lead', after: 'failures', failures: 3 }, { step: 'a', activation: 1, reason: '3 failed attempts' });
    const model = buildTimelineModel(timeline(log.events, 100), log.events);
    expect(model.markers).toMatchObject([{ kind: 'escalation', rowKey: 'a/1', label: 'a escalated to ops-lead by policy "page-ops": 3 failed attempts' }]);
  });

  it('marks a note on its step and on the run, and a note after the run ended stays in the extent', () => {
    const log = new LogWriter();
    log.created(0);
    log.quickStep('a', 1, 0, 10);
    log.add('run_state_changed', 20, { state: 'succeeded' });
    log.add('note_added', 50, { text: 'checked by hand', by: 'ana' }, { step: 'a', activation: 1, reason: 'note by ana' });
    log.add('note_added', 900, { text: 'priced by the old table', by: 'bo' }, { reason: 'note by bo' });
    const model = buildTimelineModel(timeline(log.events, 1000), log.events);
    expect(model.markers.map((m) => [m.kind, m.rowKey, m.atMs, m.label])).toEqual([
      ['note', 'a/1', 50, 'note by ana: checked by hand'],
      ['note', RUN_ROW, 900, 'note by bo: priced by the old table'],
    ]);
    expect(model.endedMs).toBe(20);
    expect(extentOf(model, 1000)).toEqual({ startMs: 0, endMs: 900 });
  });

  it('marks an operator re-deciding the path on the acted step, and a step passed over on its own row, with what and why', () => {
    // write failed into the end step write_failed; a retry re-decides what followed, write runs
    // again and succeeds, and write_failed (reached on the old path) is passed over.
    const log = new LogWriter();
    log.created(0);
    log.add('step_activated', 10, {}, { step: 'write', activation: 1 });
    log.add('attempt_started', 11, { inputHash: 'h', input: null, variant: null, effect: 'external' }, { step: 'write', activation: 1, attempt: 1 });
    log.add('attempt_failed', 20, { error: { code: 'http_500', message: '500' }, retryable: false }, { step: 'write', activation: 1, attempt: 1 });
    log.add('step_settled', 20, { outcome: 'failed', edges: [{ id: 'write_failed_to_end', taken: true, why: 'write failed' }] }, { step: 'write', activation: 1 });
    log.quickStep('write_failed', 1, 21, 0);
    log.add('run_state_changed', 22, { state: 'failed' });
    log.add('operator_action', 100, { action: 'retry', by: 'ann' }, { step: 'write', reason: 'retried by ann: fixed' });
    log.add('path_reopened', 100, { cause: 'retry of "write" by ann', edges: ['write_failed_to_end'], steps: [{ stepId: 'write_failed', activation: 1, state: 'succeeded' }] }, { step: 'write', reason: 'retry of "write" by ann: what followed its earlier outcome is decided again; superseded: write_failed (end step reached in activation 1)' });
    log.quickStep('write', 2, 100, 5);
    log.add('step_passed_over', 106, { edges: [] }, { step: 'write_failed', activation: 1, reason: 'no edge into it is taken any more ("write_failed_to_end": not taken)' });
    const model = buildTimelineModel(timeline(log.events, 200), log.events);
    expect(model.markers.map((m) => [m.kind, m.rowKey, m.atMs, m.label])).toEqual([
      // The retry, without an activation of its own, lands on the acted step's latest activation;
      // what it re-decided is the run's path, on the run's row (not hidden under the retry's square).
      ['operator', 'write/1', 100, 'ann: retry write: retried by ann: fixed'],
      ['reopened', RUN_ROW, 100, 'retry of "write" by ann: what followed its earlier outcome is decided again; superseded: write_failed (end step reached in activation 1)'],
      ['passed_over', 'write_failed/1', 106, 'write_failed passed over: no edge into it is taken any more ("write_failed_to_end": not taken)'],
    ]);
    // A log without the engine's reason still says who re-decided what.
    const bare = new LogWriter();
    bare.created(0);
    bare.add('path_reopened', 5, { cause: 'skip of "a" by bob', edges: [], steps: [{ stepId: 'b', activation: 1, state: 'succeeded' }, { stepId: 'c', activation: 2, state: 'skipped' }] }, { step: 'a' });
    bare.add('step_passed_over', 6, { edges: [] }, { step: 'b', activation: 1 });
    expect(buildTimelineModel(timeline(bare.events, 10), bare.events).markers.map((m) => [m.kind, m.rowKey, m.label])).toEqual([
      ['reopened', RUN_ROW, 'skip of "a" by bob: decided again: b, c'],
      ['passed_over', RUN_ROW, 'b passed over'],
    ]);
  });

  it('without events yet, draws the spans with no outcomes and no markers', () => {
    const log = mixedRun();
    const model = buildTimelineModel(timeline(log.events, 7000), []);
    expect(model.rows.length).toBe(4);
    expect(model.rows[1]?.bars[1]?.outcome).toBeNull();
    expect(model.rows[3]?.bars.at(-1)?.outcome).toBe('open');
    expect(model.markers).toEqual([]);
  });

  it('builds a 100,000-event run: one row per activation, every bar accounted for', () => {
    const events = loopRun(12_500);
    expect(events.length).toBe(100_002);
    const model = buildTimelineModel(timeline(events), events);
    expect(model.rows.length).toBe(25_001);
    expect(model.rows[1]?.key).toBe('a/1');
    expect(model.rows[2]?.key).toBe('b/1');
    expect(model.rows.at(-1)?.key).toBe('b/12500');
    // Rows in start order throughout.
    for (let i = 2; i < model.rows.length; i++) expect((model.rows[i]?.firstMs ?? 0) >= (model.rows[i - 1]?.firstMs ?? 0)).toBe(true);
    const bars = model.rows.reduce((n, r) => n + r.bars.length, 0);
    expect(bars).toBe(50_000);
    expect(model.rows.every((r) => r.stepId === null || r.bars.some((b) => b.outcome === 'succeeded'))).toBe(true);
    expect(model.rowIndex.get('a/6000')).toBe(1 + 2 * 5999);
    expect(model.endedMs).toBe(10 + 12 * 12_500);
  });
});

describe('time window', () => {
  const log = mixedRun();
  const model = buildTimelineModel(timeline(log.events, 7000), log.events);

  it('maps time to x and back', () => {
    const w = { startMs: 1000, endMs: 3000 };
    expect(xOf(2000, w, 400)).toBe(200);
    expect(msOf(100, w, 400)).toBe(1500);
  });

  it('fits the whole run, open runs up to now', () => {
    const w = fitWindow(model, 9000);
    expect(w.startMs).toBeLessThan(1000);
    expect(w.endMs).toBeGreaterThan(9000);
  });

  it('zooms around an anchor that stays put, and pans', () => {
    const bounds = { startMs: 1000, endMs: 7000 };
    const w = { startMs: 1000, endMs: 7000 };
    const z = zoomWindow(w, 0.5, 2500, bounds);
    expect(z.endMs - z.startMs).toBe(3000);
    expect(xOf(2500, z, 600)).toBeCloseTo(xOf(2500, w, 600));
    const p = panWindow(z, 1000, bounds);
    expect(p).toEqual({ startMs: z.startMs + 1000, endMs: z.endMs + 1000 });
    // Never panned off the run entirely.
    const far = panWindow(z, 1e9, bounds);
    expect(far.startMs).toBeLessThan(bounds.endMs);
    // Zooming out stops at 4 times the run.
    const out = zoomWindow(w, 100, 4000, bounds);
    expect(out.endMs - out.startMs).toBe(24_000);
  });

  it('finds the bars in the window and the bar under a point', () => {
    const fetch = model.rows[1];
    if (fetch === undefined) throw new Error('no fetch row');
    expect(barsInWindow(fetch, { startMs: 1700, endMs: 2700 }, 7000).map((b) => b.kind)).toEqual(['retry_wait', 'running']);
    expect(barAt(fetch, 1200, 5, 7000)).toMatchObject({ kind: 'running', attempt: 1 });
    // At the boundary between the first attempt and the backoff, the attempt wins.
    expect(barAt(fetch, 1600, 5, 7000)).toMatchObject({ kind: 'running', outcome: 'failed' });
    expect(barAt(fetch, 3050, 10, 7000)).toBeNull();
    expect(barAt(fetch, 3050, 60, 7000)).toMatchObject({ attempt: 2 });
    // An open bar runs to now.
    expect(barAt(model.rows[3] ?? fetch, 6900, 0, 7000)?.kind).toBe('waiting_event');
  });

  it('adapts ticks to the zoom', () => {
    const wide = ticksFor({ startMs: 0, endMs: 600_000 }, 800, 0);
    expect(wide.map((t) => t.label).slice(0, 3)).toEqual(['+0s', '+1m', '+2m']);
    const narrow = ticksFor({ startMs: 1000, endMs: 1100 }, 800, 0);
    expect(narrow.length).toBeGreaterThanOrEqual(5);
    expect(narrow[0]?.label).toBe('+1.00s');
    for (const ticks of [wide, narrow]) {
      const gaps = ticks.slice(1).map((t, i) => xOf(t.ms, { startMs: 0, endMs: 1 }, 1) - xOf(ticks[i]?.ms ?? 0, { startMs: 0, endMs: 1 }, 1));
      expect(new Set(gaps.map((g) => g.toFixed(6))).size).toBe(1);
    }
  });
});

describe('row order', () => {
  it('keeps log order among activations that start in the same millisecond', () => {
    const log = new LogWriter();
    log.created(0);
    // A fast engine: a/1, b/1, a/2, b/2 all at 5 ms.
    for (const [step, activation] of [['b', 1], ['a', 2], ['b', 2]] as const) log.quickStep(step, activation, 5, 0);
    log.quickStep('a', 1, 1, 0);
    const model = buildTimelineModel(timeline(log.events), log.events);
    expect(model.rows.map((r) => r.key)).toEqual([RUN_ROW, 'a/1', 'b/1', 'a/2', 'b/2']);
  });
});
