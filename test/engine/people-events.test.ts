// Human and event steps on the real engine: tasks, approvals with forms, rejections whose reason
// the next activation reads, deadlines, reassignment, and correlated events (early, duplicate,
// late). Bad operator input changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { VirtualClock } from '../../engine/runtime/virtual-clock.ts';
import { harness, types, until, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

const review = {
  format: 'weft/v1',
  id: 'review-loop',
  version: 1,
  name: 'Draft and review',
  input: { type: 'object', properties: { topic: { type: 'string' } } },
  steps: [
    { id: 'draft', kind: 'transform', config: { expression: '"Draft about " & input.topic' } },
    {
      id: 'review',
      kind: 'human',
      config: { task: 'review', title: 'Review the draft on {{ input.topic }}', assignee: 'ana', form: { type: 'object', required: ['score'], properties: { score: { type: 'integer', minimum: 1, maximum: 5 } } } },
      deadlineMs: 86_400_000,
    },
    { id: 'rework', kind: 'transform', config: { expression: '"Draft fixing: " & steps.review.output.reason' } },
    { id: 'rereview', kind: 'human', config: { task: 'approve', title: 'Approve the rework' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
    { id: 'dropped', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'e1', from: 'draft', to: 'review' },
    { id: 'ok', from: 'review', to: 'done' },
    { id: 'fix', from: 'review', to: 'rework', on: 'rejected' },
    { id: 'again', from: 'rework', to: 'rereview' },
    { id: 'ok2', from: 'rereview', to: 'done' },
    { id: 'loop', from: 'rereview', to: 'rework', on: 'rejected', maxTraversals: 2 },
    { id: 'late', from: 'review', to: 'dropped', on: 'expired' },
    { id: 'late2', from: 'rereview', to: 'dropped', on: ['expired'] },
  ],
};

describe('human steps', () => {
  it('opens a task, refuses bad answers without changing anything, and continues on approval', async () => {
    h = harness();
    const { runId } = h.start(review, { topic: 'WAL' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    const task = h.model(runId).steps.get('review')?.task;
    expect(task).toMatchObject({ task: 'review', title: 'Review the draft on WAL', assignee: 'ana' });
    const before = h.events(runId).length;
    await expect(h.engine.decideTask(runId, 'review', { decision: 'approved', by: 'ana', data: { score: 9 } })).rejects.toThrow(/does not match the form of "review": \/score must be <= 5/);
    await expect(h.engine.decideTask(runId, 'draft', { decision: 'approved', by: 'ana' })).rejects.toThrow(/is succeeded, not waiting for a person/);
    await expect(h.engine.decideTask(runId, 'review', { decision: 'rejected', by: 'ana' })).rejects.toThrow(/needs a reason/);
    expect(h.events(runId).length).toBe(before);
    await h.engine.reassignTask(runId, 'review', 'ben', 'ana');
    await h.engine.decideTask(runId, 'review', { decision: 'approved', by: 'ben', data: { score: 4 } });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const out = h.model(runId).view['review']?.output as Record<string, unknown>;
    expect(out).toMatchObject({ decision: 'approved', by: 'ben', data: { score: 4 } });
    expect(types(h.events(runId), 'review')).toEqual(['step_activated', 'attempt_started', 'task_opened', 'task_reassigned', 'task_decided', 'attempt_succeeded', 'step_settled']);
  });

  it('carries a rejection reason to the rework step', async () => {
    h = harness();
    const { runId } = h.start(review, { topic: 'WAL' });
    await h.engine.settled(runId);
    await h.engine.decideTask(runId, 'review', { decision: 'rejected', by: 'ana', reason: 'cite the benchmark' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    expect(h.model(runId).view['rework']?.output).toBe('Draft fixing: cite the benchmark');
    await h.engine.decideTask(runId, 'rereview', { decision: 'approved', by: 'ana' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
  });

  it('expires a task at its deadline, or escalates it and keeps it open', async () => {
    // Virtual time: the deadlines pass when the test says, after the runs are seen waiting.
    const clock = new VirtualClock();
    h = harness(undefined, clock);
    const quick = (onExpire: string) => ({
      format: 'weft/v1', id: `quick-${onExpire}`, version: 1, name: 'Quick',
      steps: [{ id: 'ask', kind: 'human', config: { task: 'approve', title: 'Now', onExpire }, deadlineMs: 100 }, { id: 'done', kind: 'end' }, { id: 'timeout', kind: 'end', config: { status: 'failed' } }],
      edges: [{ id: 'a', from: 'ask', to: 'done' }, { id: 'b', from: 'ask', to: 'timeout', on: ['expired', 'rejected'] }],
    });
    const expired = h.start(quick('expire')).runId;
    const escalated = h.start(quick('escalate')).runId;
    const rejected = h.start(quick('reject')).runId;
    expect(await h.engine.settled(expired)).toBe('waiting');
    expect(await h.engine.settled(escalated)).toBe('waiting');
    expect(await h.engine.settled(rejected)).toBe('waiting');
    expect(clock.advance()).toBe(true);
    await until(() => h?.store.getRun(expired)?.state === 'failed' && h.store.getRun(escalated)?.state === 'needs_attention' && h.store.getRun(rejected)?.state === 'failed', 'the deadlines');
    const outcome = (id: string) => (h?.events(id).find((e) => e.type === 'step_settled' && e.step === 'ask')?.data as RunEvent<'step_settled'>['data'] | undefined)?.outcome;
    expect(outcome(expired)).toBe('expired');
    expect(outcome(rejected)).toBe('rejected');
    expect(h.model(escalated).steps.get('ask')).toMatchObject({ state: 'waiting', escalated: true });
    await h.engine.decideTask(escalated, 'ask', { decision: 'approved', by: 'ops' });
    expect(await h.engine.settled(escalated)).toBe('succeeded');
  });
});

describe('event steps', () => {
  const order = {
    format: 'weft/v1', id: 'order', version: 1, name: 'Order',
    input: { type: 'object', properties: { orderId: { type: 'string' } } },
    steps: [
      { id: 'create', kind: 'transform', config: { expression: 'input.orderId' } },
      { id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.orderId' }, deadlineMs: 400 },
      { id: 'ship', kind: 'transform', config: { expression: 'steps.paid.output.data.amount' } },
      { id: 'done', kind: 'end' },
      { id: 'unpaid', kind: 'end', config: { status: 'failed' } },
    ],
    edges: [{ id: 'a', from: 'create', to: 'paid' }, { id: 'b', from: 'paid', to: 'ship' }, { id: 'c', from: 'ship', to: 'done' }, { id: 'd', from: 'paid', to: 'unpaid', on: 'expired' }],
  };

  it('delivers by name and key, ignores duplicates and keeps early events', async () => {
    // Virtual time that stands still: the 400 ms deadline never passes while the events arrive.
    h = harness(undefined, new VirtualClock());
    // Early: sent before the step waits.
    expect((await h.engine.sendEvent({ id: 'ev-1', name: 'payment.received', key: 'A1', data: { amount: 12 }, receivedAt: 1 })).status).toBe('kept');
    const early = h.start(order, { orderId: 'A1' }).runId;
    expect(await h.engine.settled(early)).toBe('succeeded');
    expect(h.model(early).view['ship']?.output).toBe(12);
    expect(h.events(early).find((e) => e.type === 'event_received')?.reason).toBe('it arrived before the step waited');
    // Waiting, then a wrong key, the right one, and the right one again.
    const waiting = h.start(order, { orderId: 'B2' }).runId;
    expect(await h.engine.settled(waiting)).toBe('waiting');
    expect((await h.engine.sendEvent({ id: 'ev-2', name: 'payment.received', key: 'Z9', data: {}, receivedAt: 2 })).status).toBe('kept');
    expect(await h.engine.sendEvent({ id: 'ev-3', name: 'payment.received', key: 'B2', data: { amount: 30 }, receivedAt: 3 })).toEqual({ status: 'delivered', runId: waiting });
    expect(await h.engine.settled(waiting)).toBe('succeeded');
    expect((await h.engine.sendEvent({ id: 'ev-3', name: 'payment.received', key: 'B2', data: { amount: 30 }, receivedAt: 4 })).status).toBe('duplicate');
    expect(h.model(waiting).view['ship']?.output).toBe(30);
  });

  it('routes along expired when no event comes before the deadline', async () => {
    h = harness();
    const { runId } = h.start(order, { orderId: 'C3' });
    await until(() => h?.store.getRun(runId)?.state === 'failed', 'the deadline');
    expect(types(h.events(runId), 'paid')).toEqual(['step_activated', 'attempt_started', 'event_awaited', 'deadline_passed', 'attempt_failed', 'step_settled']);
  });
});
