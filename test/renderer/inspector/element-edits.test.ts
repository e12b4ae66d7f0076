import { describe, expect, it } from 'vitest';
import { editField, elementValue, replaceElement, stepIdError, workflowIdError } from '../../../renderer/editor/inspector/element-edits.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { doc } from './fixture.ts';

const ok = (r: ReturnType<typeof editField>): Workflow => {
  if (!r.ok) throw new Error(r.error);
  return r.doc;
};
const step = (d: Workflow, id: string): unknown => d.steps.find((s) => s.id === id);

describe('editField on a step', () => {
  it('sets a config field and leaves other steps untouched', () => {
    const next = ok(editField(doc, { type: 'step', id: 'quote' }, ['config', 'url'], 'https://y'));
    expect(step(next, 'quote')).toMatchObject({ config: { method: 'GET', url: 'https://y' } });
    expect(next.steps[1]).toBe(doc.steps[1]);
  });

  it('clearing an optional field removes the key, and an emptied retry goes with it', () => {
    const next = ok(editField(doc, { type: 'step', id: 'charge' }, ['retry', 'maxAttempts'], undefined));
    expect(step(next, 'charge')).not.toHaveProperty('retry');
  });

  it('refuses a value of the wrong shape with the field and the reason', () => {
    const r = editField(doc, { type: 'step', id: 'charge' }, ['retry', 'maxAttempts'], 0);
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/^retry\.maxAttempts: .*>\s*0/) });
    const empty = editField(doc, { type: 'step', id: 'quote' }, ['input'], '');
    expect(empty).toEqual({ ok: false, error: 'input: an expression cannot be empty' });
  });

  it("a revalidate check is written by its fields: the first makes it, edits keep its other keys, removing drops it", () => {
    const review = { type: 'step', id: 'review' } as const;
    const made = ok(editField(doc, review, ['revalidate', 'check'], '$waitedMs < 3600000'));
    expect(step(made, 'review')).toMatchObject({ revalidate: { check: '$waitedMs < 3600000' } });
    const timed = ok(editField(made, review, ['revalidate', 'afterMs'], 3_600_000));
    const described = ok(editField(timed, review, ['revalidate', 'description'], 'the approval is recent'));
    const edited = ok(editField(described, review, ['revalidate', 'check'], '$waitedMs < 7200000'));
    expect(step(edited, 'review')).toMatchObject({ revalidate: { check: '$waitedMs < 7200000', afterMs: 3_600_000, description: 'the approval is recent' } });
    expect(editField(edited, review, ['revalidate', 'check'], '')).toEqual({ ok: false, error: 'revalidate.check: an expression cannot be empty' });
    expect(editField(doc, review, ['revalidate', 'afterMs'], 60_000)).toEqual({ ok: false, error: expect.stringMatching(/^revalidate\.check: /) });
    expect(step(ok(editField(edited, review, ['revalidate'], undefined)), 'review')).not.toHaveProperty('revalidate');
  });

  it('accepts a value that only breaks a cross-field rule (the validator reports it)', () => {
    const next = ok(editField(doc, { type: 'step', id: 'both' }, ['config', 'mode'], 'atLeast'));
    expect(step(next, 'both')).toMatchObject({ config: { mode: 'atLeast' } });
  });

  it('renaming through the id field renames the references too', () => {
    const next = ok(editField(doc, { type: 'step', id: 'charge' }, ['id'], 'pay'));
    expect(next.edges.find((e) => e.id === 'e4')?.from).toBe('pay');
    expect(step(next, 'both')).toMatchObject({ config: { branches: ['pay', 'review'] } });
    expect(next.layout).toHaveProperty('pay');
  });

  it('refuses a taken id and a compensation of itself', () => {
    expect(editField(doc, { type: 'step', id: 'charge' }, ['id'], 'quote')).toEqual({ ok: false, error: 'id: another step is already called "quote"' });
    expect(editField(doc, { type: 'step', id: 'charge' }, ['compensation'], 'charge')).toEqual({ ok: false, error: 'compensation: a step cannot offset itself' });
  });
});

describe('editField on an edge and the workflow', () => {
  it('reroutes an edge to an existing step only', () => {
    const next = ok(editField(doc, { type: 'edge', id: 'e1' }, ['to'], 'charge'));
    expect(next.edges[0]).toMatchObject({ from: 'quote', to: 'charge' });
    expect(editField(doc, { type: 'edge', id: 'e1' }, ['to'], 'nowhere')).toEqual({ ok: false, error: 'to: no step is called "nowhere"' });
  });

  it('edits the workflow head and keeps steps, edges and layout', () => {
    const next = ok(editField(doc, { type: 'workflow' }, ['limits', 'maxParallelRuns'], 2));
    expect(next.limits).toEqual({ maxParallelRuns: 2 });
    expect(next.steps).toBe(doc.steps);
    expect(next.layout).toBe(doc.layout);
    expect(editField(doc, { type: 'workflow' }, ['id'], 'Order Flow')).toMatchObject({ ok: false, error: expect.stringMatching(/^id: /) });
  });
});

describe('replaceElement (the JSON view)', () => {
  it('replaces a step with valid JSON', () => {
    const next = ok(replaceElement(doc, { type: 'step', id: 'refund' }, { id: 'refund', kind: 'script', config: { module: 'r2.js' } }));
    expect(step(next, 'refund')).toEqual({ id: 'refund', kind: 'script', config: { module: 'r2.js' } });
  });

  it('refuses an unknown key and leaves the document alone', () => {
    const r = replaceElement(doc, { type: 'edge', id: 'e1' }, { id: 'e1', from: 'quote', to: 'review', colour: 'red' });
    expect(r).toEqual({ ok: false, error: expect.stringContaining('colour') });
  });

  it('shows the workflow without steps, edges and layout', () => {
    expect(elementValue(doc, { type: 'workflow' })).not.toHaveProperty('steps');
    expect(elementValue(doc, { type: 'edge', id: 'gone' })).toBeNull();
  });
});

describe('id rules', () => {
  it.each([
    ['', 'a step needs an id'],
    ['2fast', 'use letters'],
    ['has-dash', 'use letters'],
    ['quote', 'already called "quote"'],
  ])('step id %j', (id, message) => {
    expect(stepIdError(doc, 'charge', id)).toContain(message);
  });

  it('keeping its own id is fine', () => {
    expect(stepIdError(doc, 'charge', 'charge')).toBeNull();
    expect(workflowIdError('order-flow')).toBeNull();
    expect(workflowIdError('Order')).toContain('slug');
  });
});
