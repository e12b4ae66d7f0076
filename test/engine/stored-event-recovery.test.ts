// An event stored but never delivered (issue 19, item 3): `weft send` commits the event, then its
// delivery; a process stopped between the two left the event stored and unconsumed, and a step
// already waiting never got it. Here the stop is a store write without the engine's delivery (what
// the killed process left; the real kill is test/crash/send-kill.test.ts). A restarted engine
// delivers it once; an engine that loads the run delivers it before a newer event; and a send in
// flight is not taken over by that catch-up.
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const order = {
  format: 'weft/v1', id: 'order', version: 1, name: 'Order',
  input: { type: 'object', properties: { orderId: { type: 'string' } } },
  steps: [
    { id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.orderId' }, deadlineMs: 86_400_000 },
    { id: 'ship', kind: 'transform', config: { expression: 'steps.paid.output.data.amount' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'b', from: 'paid', to: 'ship' }, { id: 'c', from: 'ship', to: 'done' }],
};

const receivedIds = (x: Harness, runId: string): unknown[] => x.events(runId).filter((e) => e.type === 'event_received').map((e) => (e.data as { id: string }).id);

describe('an event stored while a step waited, but never delivered', () => {
  it('is delivered once by the next engine that recovers the run', async () => {
    h = harness();
    const { runId } = h.start(order, { orderId: 'A1' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    h.store.receiveExternalEvent({ id: 'ev-1', name: 'payment.received', key: 'A1', data: { amount: 12 }, receivedAt: 5 });
    const engine = h.restart();
    expect(engine.recover().runs).toBe(1);
    expect(await engine.settled(runId)).toBe('succeeded');
    const received = h.events(runId).filter((e) => e.type === 'event_received');
    expect(received.map((e) => [(e.data as { id: string }).id, e.reason])).toEqual([['ev-1', 'it was stored earlier, and the send that stored it stopped before delivering it']]);
    expect(h.model(runId).view['ship']?.output).toBe(12);
    expect(h.store.externalEventConsumer('ev-1')).toEqual({ runId, stepId: 'paid' });
    // Another restart delivers nothing again.
    const again = h.restart();
    again.recover();
    expect(receivedIds(h, runId)).toEqual(['ev-1']);
  });

  it('goes before a newer event: the newer one is kept', async () => {
    h = harness();
    const { runId } = h.start(order, { orderId: 'B2' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    h.store.receiveExternalEvent({ id: 'old', name: 'payment.received', key: 'B2', data: { amount: 1 }, receivedAt: 5 });
    const engine = h.restart();
    await engine.deliverStoredEvents(runId);
    expect(await engine.sendEvent({ id: 'new', name: 'payment.received', key: 'B2', data: { amount: 2 }, receivedAt: 6 })).toEqual({ status: 'kept' });
    expect(await engine.settled(runId)).toBe('succeeded');
    expect(receivedIds(h, runId)).toEqual(['old']);
    expect(h.model(runId).view['ship']?.output).toBe(1);
  });

  it('does not take over a send in flight: a run loaded just before the send gets it from the send', async () => {
    h = harness();
    const { runId } = h.start(order, { orderId: 'C3' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    const engine = h.restart();
    // Loading queues the run's catch-up for its next tick, which runs after the send stored its event.
    engine.load(runId);
    expect(await engine.sendEvent({ id: 'ev-3', name: 'payment.received', key: 'C3', data: { amount: 3 }, receivedAt: 7 })).toEqual({ status: 'delivered', runId });
    expect(await engine.settled(runId)).toBe('succeeded');
    expect(h.events(runId).filter((e) => e.type === 'event_received').map((e) => e.reason)).toEqual(['sent while the step waited']);
  });
});
