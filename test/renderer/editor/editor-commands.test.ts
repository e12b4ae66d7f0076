// The editor's command registry, in Node: ids and keys are unique, a disabled command does
// nothing whether a key or a button calls it, the commands that take an argument (add a step
// after the selected one, reveal, focus) do what the palette, canvas and Problems panel rely on,
// and a gesture is one undo step through the store.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { NODE_HEIGHT, NODE_WIDTH } from '../../../renderer/graph/to-flow.ts';
import { redo, undo, useEditor, type EditorView } from '../../../renderer/editor/editor-store.ts';
import { withPositions, type Layout } from '../../../renderer/editor/doc-ops.ts';
import { ALL_COMMANDS, COMMANDS, commandForKey, keyLabel, run, runCommand, runKey, shortcutGroups, type KeyBinding } from '../../../renderer/editor/editor-commands.ts';
import type { EditorHost } from '../../../renderer/editor/editor-host-port.ts';
import { focusFieldCommand, insertStepCommand, revealCommand } from '../../../renderer/editor/step-commands.ts';
import { useInspectorUi } from '../../../renderer/editor/inspector/inspector-ui-store.ts';

const doc: Workflow = {
  format: 'weft/v1',
  id: 'demo',
  version: 1,
  name: 'Demo',
  steps: [
    { id: 'charge', kind: 'http', config: { method: 'POST', url: 'https://pay.test/' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'charge_done', from: 'charge', to: 'done' }],
  layout: { charge: { x: 100, y: 40 }, done: { x: 500, y: 40 } },
};
const source = { workflowId: 'demo', file: 'demo.weft.json', hash: null };
const layoutOf = (): Layout => useEditor.getState().doc?.layout ?? {};

function fakeHost() {
  const host = {
    save: vi.fn(() => Promise.resolve()),
    layout: vi.fn((w: Workflow) => Promise.resolve(Object.fromEntries(w.steps.map((s, i) => [s.id, { x: i * 300, y: 0 }])))),
    readClip: vi.fn(() => null),
    writeClip: vi.fn(),
    togglePref: vi.fn(),
    revealHandoffs: vi.fn(),
    renameFile: vi.fn(() => Promise.resolve()),
    exportFile: vi.fn(() => Promise.resolve()),
    importFile: vi.fn(() => Promise.resolve()),
    deleteFile: vi.fn(() => Promise.resolve()),
  } satisfies EditorHost;
  return host;
}

function fakeView() {
  const view = {
    centre: vi.fn(() => ({ screen: { x: 640, y: 360 }, flow: { x: 1000, y: 2000 } })),
    fitAll: vi.fn(),
    fitSteps: vi.fn(),
    reveal: vi.fn(),
    zoomIn: vi.fn(),
    zoomOut: vi.fn(),
  } satisfies EditorView;
  return view;
}

/** A key press as the window handler sees it. */
const press = (b: KeyBinding, inField = false): boolean =>
  runKey({ key: b.key, metaKey: false, ctrlKey: b.mod ?? false, shiftKey: b.shift ?? false, altKey: b.alt ?? false }, inField, () => undefined);

let host = fakeHost();
let view = fakeView();

beforeEach(() => {
  host = fakeHost();
  view = fakeView();
  // As the editor page opens a file with a layout: the file's positions are the canvas's.
  useEditor.getState().open(doc, source, doc.layout ?? {});
  useEditor.getState().setHost(host);
  useEditor.getState().setView(view);
});

afterEach(() => {
  useEditor.getState().setHost(null);
  useEditor.getState().setView(null);
  useEditor.getState().close();
});

describe('the command registry', () => {
  it('gives every command a unique id and a label', () => {
    const ids = ALL_COMMANDS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of ALL_COMMANDS) expect(c.label.trim(), c.id).not.toBe('');
  });

  it('binds no key to two commands in a scope, and each key reaches its own command', () => {
    // A command that runs in text fields is in both scopes; the others only outside fields.
    for (const inField of [false, true]) {
      const seen = new Map<string, string>();
      for (const c of COMMANDS.filter((x) => !inField || x.inFields === true)) {
        for (const k of new Set(c.keys.map(keyLabel))) {
          expect(seen.get(k), `${k} bound to ${seen.get(k)} and ${c.id}`).toBeUndefined();
          seen.set(k, c.id);
        }
        for (const k of c.keys) {
          expect(commandForKey({ key: k.key, metaKey: false, ctrlKey: k.mod ?? false, shiftKey: k.shift ?? false, altKey: k.alt ?? false }, inField)?.id).toBe(c.id);
        }
      }
    }
  });

  it('lists every command that has keys in the cheat sheet, with its keys', () => {
    const listed = shortcutGroups().flatMap((g) => g.rows);
    const keyed = COMMANDS.filter((c) => c.keys.length > 0);
    expect(listed.map((r) => r.id).sort()).toEqual(keyed.map((c) => c.id).sort());
    const undoRow = listed.find((r) => r.id === 'undo');
    expect(undoRow?.keys).toEqual([keyLabel({ key: 'z', mod: true })]);
    // `?` with and without Shift is one key on the sheet.
    expect(listed.find((r) => r.id === 'cheatSheet')?.keys).toEqual(['?']);
  });

  it('answers the desktop menu actions once each', () => {
    const menus = COMMANDS.flatMap((c) => (c.menu === undefined ? [] : [c.menu]));
    expect(new Set(menus).size).toBe(menus.length);
    expect(menus).toEqual(expect.arrayContaining(['file.save', 'edit.undo', 'edit.redo', 'help.shortcuts', 'view.panel.problems', 'file.new', 'file.import', 'file.export']));
  });
});

describe('enabled', () => {
  const save = COMMANDS.find((c) => c.id === 'save');
  const saveKey = save?.keys[0];
  if (saveKey === undefined) throw new Error('save has no key');

  it('a disabled command does nothing from its key, though the key is still claimed', () => {
    useEditor.getState().setSaving({ busy: true });
    expect(press(saveKey)).toBe(true);
    expect(host.save).not.toHaveBeenCalled();
    useEditor.getState().setSaving({ busy: false });
    expect(press(saveKey)).toBe(true);
    expect(host.save).toHaveBeenCalledTimes(1);
  });

  it('a disabled command does nothing from its toolbar button', () => {
    useEditor.getState().setLaying(true);
    run('autoLayout');
    expect(host.layout).not.toHaveBeenCalled();
    useEditor.getState().setLaying(false);
    run('autoLayout');
    expect(host.layout).toHaveBeenCalledTimes(1);
    expect(useEditor.getState().laying).toBe(true);
  });

  it('undo and redo are enabled only with history to move through, from keys and buttons alike', () => {
    const before = useEditor.getState().doc;
    expect(press({ key: 'z', mod: true })).toBe(true);
    expect(useEditor.getState().doc).toBe(before);
    useEditor.getState().edit((d) => ({ ...d, name: 'Renamed' }));
    run('undo');
    expect(useEditor.getState().doc).toBe(before);
    press({ key: 'z', mod: true, shift: true });
    expect(useEditor.getState().doc?.name).toBe('Renamed');
  });

  it('nothing runs with no document open', () => {
    useEditor.getState().close();
    run('save');
    press({ key: 'a', mod: true });
    expect(host.save).not.toHaveBeenCalled();
    expect(useEditor.getState().selection).toEqual({ steps: [], edges: [] });
  });

  it('keys other than save leave a text field alone', () => {
    expect(press({ key: 'a', mod: true }, true)).toBe(false);
    expect(useEditor.getState().selection.steps).toEqual([]);
    expect(press({ key: 's', mod: true }, true)).toBe(true);
    expect(host.save).toHaveBeenCalledTimes(1);
  });

  it('shows why a menu command did nothing, and a failure of work it left running', async () => {
    expect(run('showHandoffs')).toMatch(/Select one step or edge/);
    useEditor.getState().select({ steps: ['charge'], edges: [] });
    expect(run('showHandoffs')).toBeUndefined();
    expect(host.revealHandoffs).toHaveBeenCalledTimes(1);
    host.exportFile.mockImplementation(() => Promise.reject(new Error('disk full')));
    run('exportFile');
    await vi.waitFor(() => expect(useEditor.getState().saving.message).toEqual({ kind: 'error', text: 'disk full' }));
  });
});

describe('commands with an argument', () => {
  it('adds a step after the selected one: to its right, connected by its first outcome, selected and revealed', () => {
    useEditor.getState().select({ steps: ['charge'], edges: [] });
    runCommand(insertStepCommand, { kind: 'end' });
    const state = useEditor.getState();
    const added = state.selection.steps[0];
    expect(added).toBe('end');
    expect(state.doc?.edges).toContainEqual(expect.objectContaining({ from: 'charge', to: 'end' }));
    expect(layoutOf()['end']).toEqual({ x: 100 + NODE_WIDTH + 80, y: 40 });
    expect(view.reveal).toHaveBeenCalledWith(['end']);
    undo();
    expect(useEditor.getState().doc).toBe(doc);
  });

  it('with nothing selected, adds the step at the centre of the view, unconnected', () => {
    runCommand(insertStepCommand, { kind: 'end' });
    expect(layoutOf()['end']).toEqual({ x: 1000 - NODE_WIDTH / 2, y: 2000 - NODE_HEIGHT / 2 });
    expect(useEditor.getState().doc?.edges).toHaveLength(1);
  });

  it('where the canvas points (a drop, an edge let go), adds the step there and does not move the view', () => {
    useEditor.getState().select({ steps: ['done'], edges: [] });
    runCommand(insertStepCommand, { kind: 'end', at: { x: 300, y: 300 }, after: 'charge' });
    expect(layoutOf()['end']).toEqual({ x: 300 - NODE_WIDTH / 2, y: 300 - NODE_HEIGHT / 2 });
    expect(useEditor.getState().doc?.edges).toContainEqual(expect.objectContaining({ from: 'charge', to: 'end' }));
    runCommand(insertStepCommand, { kind: 'end', at: { x: 900, y: 300 }, after: null });
    expect(useEditor.getState().doc?.edges).toHaveLength(2);
    expect(view.reveal).not.toHaveBeenCalled();
    expect(view.fitSteps).not.toHaveBeenCalled();
  });

  it('closes the palette it was picked from', () => {
    run('addStep');
    expect(useEditor.getState().overlay).toEqual({ kind: 'palette', at: { x: 640, y: 360 } });
    runCommand(insertStepCommand, { kind: 'end' });
    expect(useEditor.getState().overlay).toBeNull();
  });

  it('reveals a step, or both ends of an edge', () => {
    runCommand(revealCommand, { stepId: 'done' });
    runCommand(revealCommand, { edgeId: 'charge_done' });
    runCommand(revealCommand, { edgeId: 'gone' });
    expect(view.reveal.mock.calls.map((c) => c[0])).toEqual([['done'], ['charge', 'done']]);
    expect(view.fitSteps).not.toHaveBeenCalled();
  });

  it('focuses a field: selects its element, opens its section and leaves the field to focus', () => {
    useInspectorUi.getState().setTab('json');
    runCommand(focusFieldCommand, '$.steps[0].config.url');
    expect(useEditor.getState().selection).toEqual({ steps: ['charge'], edges: [] });
    const ui = useInspectorUi.getState();
    expect(ui.tab).toBe('form');
    expect(ui.pending?.fields[0]).toMatch(/url/);
  });
});

describe("the keyboard's way to connect and to reach the inspector", () => {
  it('C opens the connect picker for the one selected step; with none or several selected it does nothing', () => {
    expect(press({ key: 'c' })).toBe(true);
    expect(useEditor.getState().overlay).toBeNull();
    useEditor.getState().select({ steps: ['charge', 'done'], edges: [] });
    press({ key: 'c' });
    expect(useEditor.getState().overlay).toBeNull();
    useEditor.getState().select({ steps: ['charge'], edges: [] });
    press({ key: 'c' });
    expect(useEditor.getState().overlay).toEqual({ kind: 'connect', from: 'charge' });
    // Escape closes the picker and keeps the selection, as for the palette.
    press({ key: 'Escape' });
    expect(useEditor.getState().overlay).toBeNull();
    expect(useEditor.getState().selection.steps).toEqual(['charge']);
  });

  it("I shows the inspector's form and leaves its first field to focus", () => {
    useInspectorUi.getState().setTab('json');
    press({ key: 'i' });
    expect(useInspectorUi.getState().tab).toBe('form');
    expect(useInspectorUi.getState().pending).toEqual({ fields: ['id', 'name'] });
    useInspectorUi.getState().focused();
  });
});

describe('undo groups, kept in the store', () => {
  const move = (x: number) => useEditor.getState().edit((d) => withPositions(d, {}, { done: { x, y: 0 } }));

  it('makes one gesture one undo step, and a redo brings back where it ended', () => {
    useEditor.getState().edit((d) => ({ ...d, name: 'First' }));
    undo();
    expect(useEditor.temporal.getState().futureStates).toHaveLength(1);
    const start = useEditor.getState().doc;
    useEditor.getState().beginGesture();
    expect(useEditor.getState().gestureStart).toBe(start);
    for (let x = 0; x < 20; x++) move(x);
    useEditor.getState().endGesture();
    expect(useEditor.getState().gestureStart).toBeNull();
    const end = useEditor.getState().doc;
    const history = useEditor.temporal.getState();
    expect(history.pastStates).toEqual([{ doc: start }]);
    // A gesture is a new edit: what was undone before it cannot be redone over it.
    expect(history.futureStates).toHaveLength(0);
    undo();
    expect(useEditor.getState().doc).toBe(start);
    redo();
    expect(useEditor.getState().doc).toBe(end);
  });

  it('a gesture that changed nothing makes no undo step', () => {
    useEditor.getState().beginGesture();
    useEditor.getState().endGesture();
    expect(useEditor.temporal.getState().pastStates).toHaveLength(0);
  });

  it('an edit group does not run across a gesture, nor across opening a document', () => {
    const rename = (name: string) => useEditor.getState().edit((d) => ({ ...d, name }), 'name');
    rename('A');
    useEditor.getState().beginGesture();
    move(5);
    useEditor.getState().endGesture();
    rename('AB');
    expect(useEditor.temporal.getState().pastStates).toHaveLength(3);
    rename('ABC');
    expect(useEditor.temporal.getState().pastStates).toHaveLength(3);
    useEditor.getState().open(doc, source, {});
    rename('X');
    expect(useEditor.temporal.getState().pastStates).toHaveLength(1);
    undo();
    expect(useEditor.getState().doc).toBe(doc);
  });
});
