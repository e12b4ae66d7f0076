import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { Workflow as WorkflowSchema } from '../../../shared/definition/workflow-schema.ts';
import { STEP_KINDS } from '../../../shared/definition/names.ts';
import { edgeOutcomesFor } from '../../../shared/definition/kind-outcomes.ts';
import { addStep, connect, copyElements, freshId, onField, parseClip, pasteClip, removeElements, replaceStep, withPositions } from '../../../renderer/editor/doc-ops.ts';
import { newStep } from '../../../renderer/kinds/kind-views.ts';

const base = (): Workflow => ({
  format: 'weft/v1',
  id: 'demo',
  version: 1,
  name: 'Demo',
  steps: [
    { id: 'charge', kind: 'http', effect: 'external', compensation: 'refund', config: { method: 'POST', url: 'https://pay.test/' } },
    { id: 'refund', kind: 'http', config: { method: 'POST', url: 'https://pay.test/refund' } },
    { id: 'both', kind: 'join', config: { mode: 'subset', branches: ['charge', 'refund'] } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'charge_both', from: 'charge', to: 'both' },
    { id: 'refund_both', from: 'refund', to: 'both', on: 'failed' },
    { id: 'both_done', from: 'both', to: 'done' },
  ],
  layout: { charge: { x: 0, y: 0 }, refund: { x: 0, y: 100 }, both: { x: 300, y: 50 }, done: { x: 600, y: 50 } },
});

describe('document edits', () => {
  it('gives fresh ids that keep their stem', () => {
    expect(freshId('http', new Set())).toBe('http');
    expect(freshId('http', new Set(['http']))).toBe('http_2');
    expect(freshId('http_2', new Set(['http', 'http_2']))).toBe('http_3');
    expect(freshId('9 lives', new Set())).toBe('_9_lives');
  });

  it('adds a step of every kind that the format accepts, with a position for every step', () => {
    let doc = base();
    for (const kind of STEP_KINDS) doc = addStep(doc, kind, { x: 10.4, y: 20.6 }, {}).doc;
    expect(WorkflowSchema.safeParse(doc).success).toBe(true);
    expect(doc.steps.map((s) => s.id)).toContain('http');
    expect(doc.layout?.['http']).toEqual({ x: 10, y: 21 });
    expect(Object.keys(doc.layout ?? {})).toHaveLength(doc.steps.length);
  });

  it('new steps of each kind parse on their own', () => {
    for (const kind of STEP_KINDS) {
      const doc: Workflow = { format: 'weft/v1', id: 'one', version: 1, name: 'One', steps: [newStep(kind, 'a')], edges: [] };
      expect(WorkflowSchema.safeParse(doc).success, kind).toBe(true);
    }
  });

  it('connects with the outcome written as the file writes it', () => {
    expect(onField(['succeeded'])).toBeUndefined();
    expect(onField(['failed'])).toBe('failed');
    expect(onField(['failed', 'timed_out'])).toEqual(['failed', 'timed_out']);
    const { doc, id } = connect(base(), 'charge', 'done', ['unknown']);
    expect(id).toBe('charge_done');
    expect(doc.edges.at(-1)).toEqual({ id: 'charge_done', from: 'charge', to: 'done', on: 'unknown' });
    expect(connect(doc, 'charge', 'done', ['succeeded']).id).toBe('charge_done_2');
  });

  it('removes steps with the edges that touch them and their layout, keeping the rest by identity', () => {
    const before = base();
    const doc = removeElements(before, ['refund'], ['both_done']);
    expect(doc.steps.map((s) => s.id)).toEqual(['charge', 'both', 'done']);
    expect(doc.edges.map((e) => e.id)).toEqual(['charge_both']);
    expect(doc.layout?.['refund']).toBeUndefined();
    expect(doc.steps[0]).toBe(before.steps[0]);
    expect(removeElements(before, [], [])).toBe(before);
  });

  it('renaming a step carries its edges, compensations, join branches and position along', () => {
    const doc = base();
    const refund = doc.steps[1];
    if (refund === undefined) throw new Error('fixture');
    const next = replaceStep(doc, 'refund', { ...refund, id: 'give_back' });
    expect(next.steps[0]?.compensation).toBe('give_back');
    expect(next.steps[2]?.kind === 'join' && next.steps[2].config?.branches).toEqual(['charge', 'give_back']);
    expect(next.edges[1]).toMatchObject({ from: 'give_back', to: 'both' });
    expect(next.layout?.['give_back']).toEqual({ x: 0, y: 100 });
  });

  it('renaming a step renames the edge ids drawn from its old name, and only those, without a clash', () => {
    const doc: Workflow = {
      ...base(),
      steps: [
        { id: 'router', kind: 'end' },
        { id: 'human', kind: 'end' },
        { id: 'other', kind: 'end' },
      ],
      edges: [
        { id: 'router_human', from: 'router', to: 'human' },
        { id: 'router_human_2', from: 'router', to: 'human', on: 'failed' },
        { id: 'escalate', from: 'router', to: 'human', on: 'timed_out' },
        { id: 'router_approver', from: 'router', to: 'other', on: 'unknown' },
        { id: 'human_human', from: 'human', to: 'human', on: 'failed' },
        { id: 'router_other', from: 'router', to: 'other', on: 'any' },
      ],
      layout: {},
    };
    const human = doc.steps[1];
    if (human === undefined) throw new Error('fixture');
    const next = replaceStep(doc, 'human', { ...human, id: 'approver' });
    expect(next.edges.map((e) => [e.id, e.from, e.to])).toEqual([
      ['router_approver_2', 'router', 'approver'],
      ['router_approver_3', 'router', 'approver'],
      ['escalate', 'router', 'approver'],
      ['router_approver', 'router', 'other'],
      ['approver_approver', 'approver', 'approver'],
      ['router_other', 'router', 'other'],
    ]);
    expect(next.edges[5]).toBe(doc.edges[5]);
    expect(new Set(next.edges.map((e) => e.id)).size).toBe(next.edges.length);
    // Without a clash the suffix is kept: the second edge between the two stays the second.
    const plain = replaceStep({ ...doc, edges: doc.edges.filter((e) => e.id !== 'router_approver') }, 'human', { ...human, id: 'approver' });
    expect(plain.edges.slice(0, 2).map((e) => e.id)).toEqual(['router_approver', 'router_approver_2']);
  });

  it('positions: moves win, then what the canvas shows, then the file', () => {
    const doc = base();
    const shown = { charge: { x: 5, y: 5 }, refund: { x: 5, y: 205 }, both: { x: 605, y: 105 }, done: { x: 1205, y: 105 } };
    const next = withPositions(doc, shown, { done: { x: 1300.7, y: 99.2 } });
    expect(next.layout).toEqual({ ...shown, done: { x: 1301, y: 99 } });
  });

  it('copy takes the inner edges only; paste renames clashing ids and keeps the inner wiring', () => {
    const doc = base();
    const clip = copyElements(doc, ['charge', 'refund', 'both'], {});
    expect(clip?.edges.map((e) => e.id)).toEqual(['charge_both', 'refund_both']);
    if (clip === null) throw new Error('no clip');
    const text = JSON.stringify(clip);
    const back = parseClip(text);
    expect(back).toEqual(clip);
    const pasted = pasteClip(doc, back ?? clip, { x: 40, y: 40 }, {});
    expect(pasted.steps).toEqual(['charge_2', 'refund_2', 'both_2']);
    const added = pasted.doc.steps.slice(4);
    expect(added[0]?.compensation).toBe('refund_2');
    expect(added[2]?.kind === 'join' && added[2].config?.branches).toEqual(['charge_2', 'refund_2']);
    expect(pasted.doc.edges.slice(3)).toEqual([
      { id: 'charge_2_both_2', from: 'charge_2', to: 'both_2' },
      { id: 'refund_2_both_2', from: 'refund_2', to: 'both_2', on: 'failed' },
    ]);
    expect(pasted.doc.layout?.['charge_2']).toEqual({ x: 40, y: 40 });
    expect(WorkflowSchema.safeParse(pasted.doc).success).toBe(true);
  });

  it('pasting into another workflow keeps ids that do not clash', () => {
    const clip = copyElements(base(), ['charge', 'refund'], {});
    if (clip === null) throw new Error('no clip');
    const other: Workflow = { format: 'weft/v1', id: 'other', version: 1, name: 'Other', steps: [{ id: 'done', kind: 'end' }], edges: [] };
    const pasted = pasteClip(other, clip, { x: 0, y: 0 }, { done: { x: 0, y: 0 } });
    expect(pasted.steps).toEqual(['charge', 'refund']);
  });

  it('refuses clipboard text that is not a clip', () => {
    expect(parseClip('hello')).toBeNull();
    expect(parseClip('{"format":"weft/clip","steps":[{"id":"x"}],"edges":[]}')).toBeNull();
    expect(parseClip('[]')).toBeNull();
  });
});

describe('outcomes per kind', () => {
  it('offers what each kind can produce, unknown for external calls, none from an end', () => {
    expect(edgeOutcomesFor({ kind: 'http' })).toEqual(['succeeded', 'failed', 'timed_out', 'budget_exceeded', 'any']);
    expect(edgeOutcomesFor({ kind: 'http', effect: 'external' })).toEqual(['succeeded', 'failed', 'unknown', 'budget_exceeded', 'any']);
    expect(edgeOutcomesFor({ kind: 'command', effect: 'external' })).toEqual(['succeeded', 'failed', 'unknown', 'budget_exceeded', 'partial', 'any']);
    expect(edgeOutcomesFor({ kind: 'human' })).toEqual(['succeeded', 'rejected', 'expired', 'any']);
    expect(edgeOutcomesFor({ kind: 'human', revalidate: { check: 'true' } })).toEqual(['succeeded', 'rejected', 'expired', 'stale', 'any']);
    expect(edgeOutcomesFor({ kind: 'router' })).toEqual(['succeeded']);
    expect(edgeOutcomesFor({ kind: 'end' })).toEqual([]);
    expect(edgeOutcomesFor({ kind: 'human' }, true)).toContain('exhausted');
  });
});
