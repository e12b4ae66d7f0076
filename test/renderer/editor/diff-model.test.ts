import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { diffWorkflows } from '../../../shared/definition/workflow-diff.ts';
import { changeItems, markOverlay, markSide } from '../../../renderer/editor/diff/diff-model.ts';

const a: Workflow = {
  format: 'weft/v1',
  id: 'demo',
  version: 1,
  name: 'Demo',
  steps: [
    { id: 'fetch', kind: 'http', config: { method: 'GET', url: 'https://a.test/' } },
    { id: 'old', kind: 'transform', config: { expression: 'input' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'fetch_old', from: 'fetch', to: 'old' },
    { id: 'old_done', from: 'old', to: 'done' },
  ],
  layout: { fetch: { x: 0, y: 0 }, old: { x: 300, y: 0 }, done: { x: 600, y: 0 } },
};

const b: Workflow = {
  ...a,
  version: 2,
  steps: [
    { id: 'fetch', kind: 'http', config: { method: 'POST', url: 'https://a.test/' } },
    { id: 'notify', kind: 'human', config: { task: 'approve', title: 'OK?' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'fetch_notify', from: 'fetch', to: 'notify' },
    { id: 'notify_done', from: 'notify', to: 'done' },
  ],
  layout: { fetch: { x: 0, y: 0 }, notify: { x: 300, y: 0 }, done: { x: 600, y: 50 } },
};

describe('the diff view model', () => {
  const diff = diffWorkflows(a, b);

  it('marks each side: A shows the removed, B the added, both the changed', () => {
    const left = markSide(a, diff, 'a');
    const right = markSide(b, diff, 'b');
    expect(Object.fromEntries(left.steps.map((s) => [s.step.id, s.mark]))).toEqual({ fetch: 'changed', old: 'removed', done: 'changed' });
    expect(Object.fromEntries(right.steps.map((s) => [s.step.id, s.mark]))).toEqual({ fetch: 'changed', notify: 'added', done: 'changed' });
    expect(right.steps[0]?.parts).toContain('config');
    expect(Object.fromEntries(right.edges.map((e) => [e.edge.id, e.mark]))).toEqual({ fetch_notify: 'added', notify_done: 'added' });
  });

  it('overlays B with the steps and edges A had and B lost', () => {
    const both = markOverlay(a, b, diff);
    expect(both.steps.map((s) => `${s.step.id}:${s.mark}`)).toEqual(['fetch:changed', 'notify:added', 'done:changed', 'old:removed']);
    expect(both.edges.filter((e) => e.mark === 'removed').map((e) => e.edge.id)).toEqual(['fetch_old', 'old_done']);
  });

  it('marks a step whose only change is its position as moved', () => {
    const moved = { ...a, layout: { ...a.layout, done: { x: 700, y: 0 } } };
    expect(markSide(moved, diffWorkflows(a, moved), 'b').steps.map((s) => s.mark)).toEqual(['same', 'same', 'moved']);
  });

  it('lists every change once, with a target the canvas can centre', () => {
    const items = changeItems(diff, a, b);
    expect(items.map((i) => i.text)).toEqual([
      'step notify (human) added',
      'step old (transform) removed',
      'step fetch: config, edges',
      'step done: edges',
      'edge fetch_notify fetch → notify added',
      'edge notify_done notify → done added',
      'edge fetch_old fetch → old removed',
      'edge old_done old → done removed',
      'layout: 1 step moved',
    ]);
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
    expect(changeItems(diffWorkflows(a, a), a, a)).toEqual([]);
  });

  it("shows each changed field's old and new value, for steps, edges and the workflow", () => {
    const c: Workflow = {
      ...a,
      name: 'Demo 2',
      steps: [{ id: 'fetch', kind: 'http', name: 'Fetch', retry: { maxAttempts: 3 }, config: { method: 'POST', url: 'https://a.test/' } }, ...a.steps.slice(1)],
      edges: [{ id: 'fetch_old', from: 'fetch', to: 'old', on: 'any' }, { id: 'last', from: 'old', to: 'done' }],
    };
    const items = changeItems(diffWorkflows(a, c), a, c);
    const byKey = Object.fromEntries(items.map((i) => [i.key, i.fields]));
    expect(byKey['s~fetch']).toEqual([
      { path: 'config.method', a: 'GET', b: 'POST' },
      { path: 'name', b: 'Fetch' },
      { path: 'retry', b: { maxAttempts: 3 } },
    ]);
    expect(byKey['e~fetch_old']).toEqual([{ path: 'on', b: 'any' }]);
    expect(byKey['e=last']).toEqual([]);
    expect(byKey['w~name']).toEqual([{ path: 'name', a: 'Demo', b: 'Demo 2' }]);
  });
});
