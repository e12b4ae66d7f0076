// Which runs an engine sharing its store gives back after a commit, and when another should take
// each up (engine/runtime/run-release.ts): pure decisions on a live run's state.
import { describe, expect, it } from 'vitest';
import { newLiveRun, type LiveRun } from '../../../engine/runtime/live-run.ts';
import { KEEP_IF_DUE_WITHIN_MS, releaseWake } from '../../../engine/runtime/run-release.ts';
import { newRunModel } from '../../../shared/run/run-model.ts';
import { parseWorkflow } from '../harness.ts';

const NOW = 1_800_000_000_000;

function waitingRun(): LiveRun {
  const wf = parseWorkflow({
    format: 'weft/v1', id: 'w', version: 1, name: 'W',
    steps: [{ id: 'ask', kind: 'human', config: { task: 'approve', title: 'Go?' }, deadlineMs: 86_400_000 }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'e1', from: 'ask', to: 'done' }],
  });
  const live = newLiveRun(newRunModel('r1', wf));
  live.model.state = 'waiting';
  return live;
}

describe('releaseWake', () => {
  it('gives back a run waiting on a person with no timer, to be taken up only when someone acts (null)', () => {
    expect(releaseWake(waitingRun(), NOW, { intake: false })).toBeNull();
  });

  it('gives back a run whose next timer is far off, to be taken up then; keeps one due soon', () => {
    const far = waitingRun();
    far.timers.set('ask', () => undefined);
    far.dues.set('ask', NOW + 3_600_000);
    expect(releaseWake(far, NOW, { intake: false })).toBe(NOW + 3_600_000);
    const soon = waitingRun();
    soon.timers.set('ask', () => undefined);
    soon.dues.set('ask', NOW + KEEP_IF_DUE_WITHIN_MS - 1);
    expect(releaseWake(soon, NOW, { intake: false })).toBeUndefined();
  });

  it('counts the escalation timer, and keeps a run with a timer it cannot date (a budget day)', () => {
    const escalating = waitingRun();
    escalating.escalations.timer = { at: NOW + 1_000, cancel: () => undefined };
    expect(releaseWake(escalating, NOW, { intake: false })).toBeUndefined();
    const budget = waitingRun();
    budget.timers.set('$budget', () => undefined);
    expect(releaseWake(budget, NOW, { intake: false })).toBeUndefined();
  });

  it('keeps a run with anything in flight or to do, a running or queued run, whoever asks', () => {
    const cases: ((l: LiveRun) => void)[] = [
      (l) => l.running.set('ask', { controller: new AbortController(), cancelTimeout: undefined }),
      (l) => l.inbox.push({ stepId: 'ask', activation: 1, attempt: 1, result: { outcome: 'succeeded', output: {} } }),
      (l) => l.actions.push(() => Promise.resolve()),
      (l) => l.waiters.push(() => undefined),
      (l) => (l.busy = true),
    ];
    for (const make of cases) {
      const live = waitingRun();
      make(live);
      expect(releaseWake(live, NOW, { intake: false })).toBeUndefined();
      expect(releaseWake(live, NOW, { intake: true })).toBeUndefined();
    }
    const ready = waitingRun();
    ready.ready.push('ask');
    expect(releaseWake(ready, NOW, { intake: false })).toBeUndefined();
    const running = waitingRun();
    running.model.state = 'running';
    expect(releaseWake(running, NOW, { intake: false })).toBeUndefined();
    const queued = waitingRun();
    queued.model.queued = true;
    expect(releaseWake(queued, NOW, { intake: false })).toBeUndefined();
  });

  it('an intake gives back any run with nothing in flight, to be taken at once (0)', () => {
    const live = waitingRun();
    live.model.state = 'running';
    live.ready.push('ask');
    expect(releaseWake(live, NOW, { intake: true })).toBe(0);
  });
});
