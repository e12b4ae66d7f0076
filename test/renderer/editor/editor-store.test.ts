import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { isDirty, positionsOf, redo, undo, useEditor } from '../../../renderer/editor/editor-store.ts';
import { addStep, withPositions } from '../../../renderer/editor/doc-ops.ts';
import { COMMANDS, commandForKey } from '../../../renderer/editor/editor-commands.ts';
import { commitFor } from '../../../renderer/editor/inspector/use-commit.ts';

const doc: Workflow = {
  format: 'weft/v1',
  id: 'demo',
  version: 1,
  name: 'Demo',
  steps: [{ id: 'done', kind: 'end' }],
  edges: [],
  layout: { done: { x: 1, y: 1 } },
};
const source = { workflowId: 'demo', file: 'demo.weft.json', hash: null };
const names = () => useEditor.getState().doc?.name;
const rename = (name: string, group?: string) => useEditor.getState().edit((d) => ({ ...d, name }), group);

afterEach(() => vi.useRealTimers());

describe('editor history', () => {
  it('undoes and redoes each edit, and knows when the document is back to the saved one', () => {
    useEditor.getState().open(doc, source, { done: { x: 10, y: 10 } });
    rename('One');
    rename('Two');
    expect(isDirty(useEditor.getState())).toBe(true);
    undo();
    expect(names()).toBe('One');
    undo();
    expect(names()).toBe('Demo');
    expect(isDirty(useEditor.getState())).toBe(false);
    redo();
    redo();
    expect(names()).toBe('Two');
  });

  it('groups edits of one field within two seconds into one undo step', () => {
    vi.useFakeTimers();
    useEditor.getState().open(doc, source, {});
    rename('D', 'name');
    vi.advanceTimersByTime(500);
    rename('De', 'name');
    vi.advanceTimersByTime(500);
    rename('Dem', 'name');
    vi.advanceTimersByTime(2500);
    rename('Demo!', 'name');
    undo();
    expect(names()).toBe('Dem');
    undo();
    expect(names()).toBe('Demo');
  });

  it('makes one undo step of a whole drag, not one per move', () => {
    useEditor.getState().open(doc, source, { done: { x: 10, y: 10 } });
    const state = useEditor.getState();
    state.beginGesture();
    for (let x = 0; x < 50; x++) useEditor.getState().edit((d) => withPositions(d, {}, { done: { x, y: 0 } }));
    useEditor.getState().endGesture();
    expect(useEditor.getState().doc?.layout?.['done']).toEqual({ x: 49, y: 0 });
    expect(useEditor.temporal.getState().pastStates).toHaveLength(1);
    undo();
    expect(useEditor.getState().doc).toBe(doc);
  });

  it('renaming a step in the inspector renames its derived edge ids in one undo step, and the selection follows', () => {
    const wired: Workflow = {
      ...doc,
      steps: [{ id: 'router', kind: 'end' }, { id: 'human', kind: 'end' }],
      edges: [
        { id: 'router_human', from: 'router', to: 'human' },
        { id: 'needs_review', from: 'router', to: 'human', on: 'failed' },
      ],
      layout: {},
    };
    useEditor.getState().open(wired, source, {});
    useEditor.getState().select({ steps: ['human'], edges: [] });
    expect(commitFor({ type: 'step', id: 'human' })('id', 'approver')).toBeNull();
    const edges = () => useEditor.getState().doc?.edges.map((e) => `${e.id}:${e.from}->${e.to}`);
    expect(edges()).toEqual(['router_approver:router->approver', 'needs_review:router->approver']);
    expect(useEditor.getState().selection.steps).toEqual(['approver']);
    undo();
    expect(edges()).toEqual(['router_human:router->human', 'needs_review:router->human']);
    expect(useEditor.getState().doc?.steps.map((s) => s.id)).toEqual(['router', 'human']);
    expect(isDirty(useEditor.getState())).toBe(false);
  });

  it('selection is not an undo step', () => {
    useEditor.getState().open(doc, source, {});
    useEditor.getState().select({ steps: ['done'], edges: [] });
    expect(useEditor.temporal.getState().pastStates).toHaveLength(0);
  });

  it('shows the opened positions until the editor writes the layout, then the layout', () => {
    useEditor.getState().open(doc, source, { done: { x: 500, y: 500 } });
    const s = useEditor.getState();
    expect(positionsOf(doc, s.basePositions, s.openedLayout)).toEqual({ done: { x: 500, y: 500 } });
    const added = addStep(doc, 'http', { x: 0, y: 0 }, s.basePositions).doc;
    expect(positionsOf(added, s.basePositions, s.openedLayout)).toEqual({ done: { x: 500, y: 500 }, http: { x: 0, y: 0 } });
  });
});

describe('editor commands', () => {
  const key = (k: string, mods: Partial<{ metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
    key: k,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });

  it('maps keys to commands, and leaves typing in fields alone except for save', () => {
    expect(commandForKey(key('z', { ctrlKey: true }), false)?.id).toBe('undo');
    expect(commandForKey(key('Z', { metaKey: true, shiftKey: true }), false)?.id).toBe('redo');
    expect(commandForKey(key('Delete'), false)?.id).toBe('delete');
    expect(commandForKey(key('Delete'), true)).toBeUndefined();
    expect(commandForKey(key('s', { ctrlKey: true }), true)?.id).toBe('save');
    expect(commandForKey(key('?', { shiftKey: true }), false)?.id).toBe('cheatSheet');
    expect(commandForKey(key('n'), true)).toBeUndefined();
    expect(commandForKey(key('q'), false)).toBeUndefined();
  });

  it('binds no key twice', () => {
    const seen = new Map<string, string>();
    for (const c of COMMANDS) {
      for (const k of c.keys) {
        const id = `${k.mod ? 'mod+' : ''}${k.shift ? 'shift+' : ''}${k.alt ? 'alt+' : ''}${k.key.toLowerCase()}`;
        expect(seen.get(id), `${id} bound to ${seen.get(id)} and ${c.id}`).toBeUndefined();
        seen.set(id, c.id);
      }
    }
  });
});
