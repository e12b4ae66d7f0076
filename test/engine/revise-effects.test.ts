// A revision must not repeat an external effect that already happened without a decision
// (issue 9, defect 4): real engine, real SQLite file, real command steps that append to a file,
// so a second effect is a second line, whatever the engine believes.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, types, type Harness } from './harness.ts';
import { quoteFlow } from './quote-flow.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

/** Lines the `send_quote` command wrote: one per quote actually sent. */
const sent = (dir: string): string[] => {
  const file = join(dir, 'quotes.log');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
};

describe('a revision after an external effect', () => {
  it('does not send a second quote by itself: the step waits for a decision', async () => {
    h = harness();
    const { runId } = h.start(quoteFlow(h.dir), { customer: 'ACME', qty: 2 });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(sent(h.dir)).toHaveLength(1);

    h.engine.revise(runId, { customer: 'ACME', qty: 3 });
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    expect(sent(h.dir)).toHaveLength(1);
    const s = h.model(runId).steps.get('send_quote');
    expect(s?.state).toBe('waiting');
    expect(s?.escalated).toBe(true);
    const held = h.events(runId).filter((e) => e.type === 'revision_held' && e.step === 'send_quote');
    expect(held).toHaveLength(1);
    expect(held[0]?.reason).toMatch(/its input changed after its effect happened/);
    // What does not depend on the quote waits; what does not do work ran again.
    expect(types(h.events(runId), 'price').filter((t) => t === 'attempt_started')).toHaveLength(2);
    expect(h.model(runId).steps.get('file_it')?.state).toBe('blocked');
  });

  it('keep: the earlier evidence stands and the run goes on without a second effect', async () => {
    h = harness();
    const { runId } = h.start(quoteFlow(h.dir), { customer: 'ACME', qty: 2 });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.revise(runId, { customer: 'ACME', qty: 3 });
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    const before = h.events(runId).length;
    await expect(h.engine.keepStep(runId, 'price', 'ops', 'x')).rejects.toThrow(/cannot keep step "price": it is succeeded/);
    expect(h.events(runId).length).toBe(before);
    await h.engine.keepStep(runId, 'send_quote', 'ops', 'the customer has the first quote');
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(sent(h.dir)).toHaveLength(1);
    const events = h.events(runId);
    expect(events.find((e) => e.type === 'operator_action' && e.step === 'send_quote')?.data).toMatchObject({ action: 'keep', by: 'ops' });
    const reused = events.filter((e) => e.type === 'evidence_reused' && e.step === 'send_quote');
    expect(reused.map((e) => (e.data as { evidenceId: string }).evidenceId)).toEqual(['send_quote/1.1']);
    expect(h.model(runId).steps.get('send_quote')?.output).toEqual({ sent: true });
  });

  it('retry: the operator decides to send again, once', async () => {
    h = harness();
    const { runId } = h.start(quoteFlow(h.dir), { customer: 'ACME', qty: 2 });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.revise(runId, { customer: 'ACME', qty: 3 });
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    await h.engine.retryStep(runId, 'send_quote', 'ops', 'the price changed, send the new quote');
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(sent(h.dir).map((l) => JSON.parse(l) as unknown)).toEqual([{ customer: 'ACME', cents: 500 }, { customer: 'ACME', cents: 750 }]);
  });

  it('skip with the old output also settles it', async () => {
    h = harness();
    const { runId } = h.start(quoteFlow(h.dir), { customer: 'ACME', qty: 2 });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.revise(runId, { customer: 'ACME', qty: 3 });
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    await h.engine.skipStep(runId, 'send_quote', { sent: true }, 'ops', 'keep the first quote');
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(sent(h.dir)).toHaveLength(1);
  });

  it('honours onRevise "rerun" and "keep", and reuses evidence whose input did not change', async () => {
    h = harness();
    const rerun = h.start({ ...quoteFlow(h.dir, { onRevise: 'rerun' }), id: 'quote-rerun' }, { customer: 'A', qty: 1 }).runId;
    expect(await h.engine.settled(rerun)).toBe('succeeded');
    h.engine.revise(rerun, { customer: 'A', qty: 4 });
    expect(await h.engine.settled(rerun)).toBe('succeeded');
    expect(sent(h.dir)).toHaveLength(2);

    const kept = h.start({ ...quoteFlow(h.dir, { onRevise: 'keep' }), id: 'quote-keep' }, { customer: 'B', qty: 1 }).runId;
    expect(await h.engine.settled(kept)).toBe('succeeded');
    h.engine.revise(kept, { customer: 'B', qty: 4 });
    expect(await h.engine.settled(kept)).toBe('succeeded');
    expect(sent(h.dir)).toHaveLength(3);
    expect(h.events(kept).find((e) => e.type === 'evidence_reused' && e.step === 'send_quote')?.reason).toMatch(/onRevise is keep/);

    // The same price under a new input: nothing to decide, the evidence still covers it.
    const same = h.start({ ...quoteFlow(h.dir), id: 'quote-same' }, { customer: 'C', qty: 2 }).runId;
    expect(await h.engine.settled(same)).toBe('succeeded');
    h.engine.revise(same, { customer: 'C', qty: 2, note: 'typo fixed' });
    expect(await h.engine.settled(same)).toBe('succeeded');
    expect(sent(h.dir)).toHaveLength(4);
  });
});
