// The revision plan (weft revise --dry-run) comes from the decision the engine takes: same
// function, no second copy of the rules; and making it changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { planRevision } from '../../engine/runtime/revision-plan.ts';
import { indexDefinition } from '../../engine/runtime/definition-index.ts';
import { harness, type Harness } from './harness.ts';
import { quoteFlow } from './quote-flow.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

describe('planRevision', () => {
  it('plans a revision with the decision the engine then takes, and the plan changes nothing', async () => {
    h = harness();
    const { runId, workflow } = h.start(quoteFlow(h.dir), { customer: 'ACME', qty: 2 });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const before = h.events(runId).length;
    const plan = await planRevision(h.model(runId), indexDefinition(workflow), { customer: 'ACME', qty: 3 });
    expect(h.events(runId).length).toBe(before);
    expect(plan.steps.map((p) => [p.stepId, p.action])).toEqual([
      ['price', 'rerun'],
      ['send_quote', 'ask'],
      ['file_it', 'later'],
      ['done', 'later'],
    ]);
    expect(plan.steps[1]?.reason).toMatch(/its input changed after its effect happened/);
    // The engine then does what the plan said.
    h.engine.revise(runId, { customer: 'ACME', qty: 3 });
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    const after = h.events(runId).slice(before);
    expect(after.filter((e) => e.type === 'attempt_started').map((e) => e.step)).toEqual(['price']);
    expect(after.filter((e) => e.type === 'revision_held').map((e) => [e.step, e.reason])).toEqual([['send_quote', plan.steps[1]?.reason]]);
    const unchanged = await planRevision(h.model(runId), indexDefinition(workflow), { customer: 'ACME', qty: 2, note: 'x' });
    expect(unchanged.inputRevision).toBe(3);
    expect(unchanged.steps.find((p) => p.stepId === 'send_quote')?.action).toBe('reuse');
  });
});
