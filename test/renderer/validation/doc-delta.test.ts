// The document goes to the validation worker as a change against the previous one. Each edit of
// the editor's own doc-ops must come out whole on the worker's side (a structured clone, as
// postMessage makes), and carry only what changed.
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { addStep, connect, removeElements, replaceStep } from '../../../renderer/editor/doc-ops.ts';
import { applyDelta, encodeDelta, type DocDelta } from '../../../renderer/editor/validation/doc-delta.ts';
import { generateWorkflow } from '../../bench/generate-workflow.ts';

/** The worker's side: it holds clones, never the editor's objects. */
function roundTrip(docs: Workflow[]): DocDelta[] {
  let sent: Workflow | null = null;
  let held: Record<string, unknown> | null = null;
  const deltas: DocDelta[] = [];
  for (const doc of docs) {
    const delta = structuredClone(encodeDelta(doc, sent));
    sent = doc;
    held = applyDelta(delta, held);
    expect(JSON.stringify(held)).toBe(JSON.stringify(doc));
    deltas.push(delta);
  }
  return deltas;
}

const newItems = (delta: DocDelta, key: string): number => {
  const field = delta.fields.find((f) => f.key === key);
  if (field === undefined || !('list' in field)) return -1;
  return field.list.filter((e) => typeof e !== 'number').length;
};

const { workflow } = generateWorkflow({ steps: 1_000, seed: 5 });

describe('encodeDelta and applyDelta', () => {
  it('sends the first document whole', () => {
    const [first] = roundTrip([workflow]);
    expect(first!.fields.every((f) => 'value' in f)).toBe(true);
  });

  it('sends one step for an edit of one step, and keeps the rest', () => {
    const step = workflow.steps[500]!;
    const edited = replaceStep(workflow, step.id, { ...step, name: 'renamed' });
    const [, delta] = roundTrip([workflow, edited]);
    expect(newItems(delta!, 'steps')).toBe(1);
    expect(delta!.fields.find((f) => f.key === 'edges')).toEqual({ key: 'edges', kept: true });
  });

  it('finds moved steps by identity after an insert and a delete', () => {
    const added = addStep(workflow, 'transform', { x: 0, y: 0 }, {}).doc;
    const shifted: Workflow = { ...added, steps: [added.steps.at(-1)!, ...added.steps.slice(0, -1)] };
    const removed = removeElements(shifted, [workflow.steps[10]!.id], []);
    const deltas = roundTrip([workflow, added, shifted, removed]);
    expect(newItems(deltas[1]!, 'steps')).toBe(1);
    expect(newItems(deltas[2]!, 'steps')).toBe(0);
    expect(newItems(deltas[3]!, 'steps')).toBe(0);
  });

  it('carries new edges, changed and removed top-level fields, in key order', () => {
    const a = workflow.steps[1]!.id;
    const b = workflow.steps[2]!.id;
    const connected = connect(workflow, a, b, ['failed']).doc;
    const withInput: Workflow = { ...connected, input: { type: 'object', properties: { x: { type: 'number' } } }, output: 'steps' };
    const { output: _dropped, ...withoutOutput } = withInput;
    const deltas = roundTrip([workflow, connected, withInput, withoutOutput]);
    expect(newItems(deltas[1]!, 'edges')).toBe(1);
    expect(deltas[3]!.fields.map((f) => f.key)).toEqual(Object.keys(withoutOutput));
  });

  it('carries a shape-invalid document as it is', () => {
    const broken = { ...workflow, steps: [...workflow.steps, 42, null], edges: 'not a list' } as unknown as Workflow;
    roundTrip([workflow, broken, workflow]);
  });

  it('refuses a change made against a document the worker does not hold', () => {
    const step = workflow.steps[0]!;
    const delta = encodeDelta(replaceStep(workflow, step.id, { ...step, name: 'x' }), workflow);
    expect(() => applyDelta(delta, null)).toThrow(/previous "/);
    const short = { ...workflow, steps: workflow.steps.slice(0, 3) };
    expect(() => applyDelta(delta, short)).toThrow(/past the end/);
  });

  it('keeps "__proto__" a key of a shape-invalid document', () => {
    const doc = JSON.parse('{"__proto__": {"x": 1}, "steps": []}') as Record<string, unknown>;
    const out = applyDelta(structuredClone(encodeDelta(doc, null)), null);
    expect(Object.keys(out)).toEqual(['__proto__', 'steps']);
  });
});
