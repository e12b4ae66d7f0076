// The debounce and newest-wins rules of live validation, driven with vitest's fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatestWinsScheduler } from '../../../renderer/editor/validation/latest-wins-scheduler.ts';

function setup(delayMs = 120) {
  const sent: { id: number; input: string }[] = [];
  const pendingChanges: boolean[] = [];
  const scheduler = new LatestWinsScheduler<string>({
    delayMs,
    timers: { set: (run, ms) => setTimeout(run, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
    send: (id, input) => sent.push({ id, input }),
    onPending: (p) => pendingChanges.push(p),
  });
  return { scheduler, sent, pendingChanges };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LatestWinsScheduler', () => {
  it('waits for a pause in the edits, then sends only the newest input', () => {
    const { scheduler, sent } = setup();
    scheduler.submit('a');
    vi.advanceTimersByTime(100);
    scheduler.submit('ab');
    vi.advanceTimersByTime(100);
    scheduler.submit('abc');
    vi.advanceTimersByTime(119);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([{ id: 1, input: 'abc' }]);
  });

  it('is pending from the first edit until the newest answer settles', () => {
    const { scheduler, sent, pendingChanges } = setup();
    expect(scheduler.pending).toBe(false);
    scheduler.submit('a');
    expect(scheduler.pending).toBe(true);
    vi.advanceTimersByTime(120);
    expect(scheduler.pending).toBe(true);
    expect(scheduler.settle(sent[0]!.id)).toBe(true);
    expect(scheduler.pending).toBe(false);
    expect(pendingChanges).toEqual([true, false]);
  });

  it('keeps one request in flight and one waiting, and drops the stale answer', () => {
    const { scheduler, sent } = setup();
    scheduler.submit('v1');
    vi.advanceTimersByTime(120);
    expect(scheduler.inFlightId).toBe(1);
    // Edits while the worker is busy: only the newest waits, nothing more is sent.
    scheduler.submit('v2');
    vi.advanceTimersByTime(120);
    scheduler.submit('v3');
    vi.advanceTimersByTime(120);
    expect(sent.map((s) => s.input)).toEqual(['v1']);
    // v1's answer is for an older document: dropped, and v3 goes out at once.
    expect(scheduler.settle(1)).toBe(false);
    expect(sent.map((s) => s.input)).toEqual(['v1', 'v3']);
    expect(scheduler.pending).toBe(true);
    expect(scheduler.settle(2)).toBe(true);
    expect(scheduler.pending).toBe(false);
  });

  it('drops an answer when an edit came after it was sent, even before the next one is sent', () => {
    const { scheduler, sent } = setup();
    scheduler.submit('v1');
    vi.advanceTimersByTime(120);
    scheduler.submit('v2');
    expect(scheduler.settle(1)).toBe(false);
    // Nothing is queued yet: v2 still waits for its pause.
    expect(sent).toHaveLength(1);
    expect(scheduler.pending).toBe(true);
    vi.advanceTimersByTime(120);
    expect(sent.map((s) => s.input)).toEqual(['v1', 'v2']);
    expect(scheduler.settle(2)).toBe(true);
  });

  it('ignores answers it never asked for, and answers settled twice', () => {
    const { scheduler } = setup();
    scheduler.submit('a');
    vi.advanceTimersByTime(120);
    expect(scheduler.settle(99)).toBe(false);
    expect(scheduler.settle(1)).toBe(true);
    expect(scheduler.settle(1)).toBe(false);
  });

  it('sends at once on flush (a document just opened)', () => {
    const { scheduler, sent } = setup();
    scheduler.submit('opened');
    scheduler.flush();
    expect(sent).toEqual([{ id: 1, input: 'opened' }]);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(1);
  });

  it('forgets everything on cancel: nothing waiting is sent and the answer in flight is dropped', () => {
    const { scheduler, sent } = setup();
    scheduler.submit('v1');
    vi.advanceTimersByTime(120);
    scheduler.submit('v2');
    scheduler.cancel();
    expect(scheduler.pending).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(scheduler.settle(1)).toBe(false);
    expect(sent.map((s) => s.input)).toEqual(['v1']);
  });

  it('after a cancel, a new input waits for the answer still in flight', () => {
    const { scheduler, sent } = setup();
    scheduler.submit('old');
    vi.advanceTimersByTime(120);
    scheduler.cancel();
    scheduler.submit('new');
    vi.advanceTimersByTime(120);
    expect(sent.map((s) => s.input)).toEqual(['old']);
    expect(scheduler.settle(1)).toBe(false);
    expect(sent.map((s) => s.input)).toEqual(['old', 'new']);
    expect(scheduler.settle(2)).toBe(true);
  });
});
