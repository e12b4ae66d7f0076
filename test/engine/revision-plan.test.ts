// The revision plan (weft revise --dry-run) comes from the decision the engine takes: same
// function, no second copy of the rules; and making it changes nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planRevision } from '../../engine/runtime/revision-plan.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import { end, harness, wf, type Harness } from './harness.ts';
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

  it('counts $activation as the engine does: a step that reads it runs again in a new revision, and so its evidence no longer covers what follows', async () => {
    h = harness();
    const log = join(h.dir, 'sent.log');
    const { runId, workflow } = h.start(wf('stamped', [
      // Reads no input field, only its activation number: the input change alone would not touch it.
      { id: 'stamp', kind: 'transform', config: { expression: '{"pass": $activation}' } },
      {
        id: 'send',
        kind: 'command',
        effect: 'external',
        onExhausted: 'escalate',
        input: 'steps.stamp.output',
        config: { argv: ['sh', '-c', `read l; echo "$l" >> '${log}'; echo '{"sent": true}'`] },
      },
      end(),
    ], [{ id: 'stamped', from: 'stamp', to: 'send' }, { id: 'sent', from: 'send', to: 'done' }]), { note: 'a' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const before = h.events(runId).length;
    const plan = await planRevision(h.model(runId), indexDefinition(workflow), { note: 'b' });
    expect(plan.steps.map((p) => [p.stepId, p.action])).toEqual([
      ['stamp', 'rerun'],
      ['send', 'ask'],
      ['done', 'later'],
    ]);
    h.engine.revise(runId, { note: 'b' });
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    const after = h.events(runId).slice(before);
    expect(after.filter((e) => e.type === 'attempt_started').map((e) => [e.step, e.activation])).toEqual([['stamp', 2]]);
    expect(after.filter((e) => e.type === 'revision_held').map((e) => [e.step, e.reason, (e.data as { input: unknown }).input])).toEqual([['send', plan.steps[1]?.reason, { pass: 2 }]]);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['{"pass":1}']);
  });
});
