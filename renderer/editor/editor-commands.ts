// The editor's commands: one registry, called the same way from the keys, the toolbar, the File
// menu, the desktop menus, the palette and the canvas (`runCommand`), and read by the `?` cheat
// sheet, so a key shown is a key that works and a disabled command does nothing from anywhere.
// What needs the page (the server, the clipboard, the layout worker) goes through the store's
// host, so the registry itself loads and runs in Node tests.
import { copyElements, pasteClip, removeElements, withPositions, type Layout } from './doc-ops.ts';
import { NO_SELECTION, positionsOf, redo, undo, useEditor, type EditorState, type Selection } from './editor-store.ts';
import { useSidePanel, type SidePanelTab } from './side-panel-store.ts';
import { useEditorPrefs } from './editor-prefs.ts';
import { focusFieldCommand, insertStepCommand, revealCommand } from './step-commands.ts';
import { useInspectorUi } from './inspector/inspector-ui-store.ts';
import type { CommandGroup, CommandId, EditorCommand, KeyBinding, NamedCommand } from './command-types.ts';

export type { CommandId, EditorCommand, KeyBinding, NamedCommand } from './command-types.ts';

const PASTE_OFFSET = { x: 48, y: 48 };

const positions = (editor: EditorState): Layout => (editor.doc === null ? {} : positionsOf(editor.doc, editor.basePositions, editor.openedLayout));
const history = () => useEditor.temporal.getState();

function paste(editor: EditorState, from: 'clipboard' | 'selection'): void {
  const clip = from === 'clipboard' ? (editor.host?.readClip() ?? null) : editor.doc === null ? null : copyElements(editor.doc, editor.selection.steps, positions(editor));
  if (clip === null) return;
  let pasted: Selection = NO_SELECTION;
  editor.edit((d) => {
    const out = pasteClip(d, clip, PASTE_OFFSET, positions(editor));
    pasted = { steps: out.steps, edges: out.edges };
    return out.doc;
  });
  editor.select(pasted);
}

function copy(editor: EditorState, cut: boolean): void {
  if (editor.doc === null) return;
  const { steps } = editor.selection;
  const clip = copyElements(editor.doc, steps, positions(editor));
  if (clip === null) return;
  editor.host?.writeClip(clip);
  if (!cut) return;
  editor.edit((d) => removeElements(d, steps, []));
  editor.select(NO_SELECTION);
}

/** Shows a tab of the side panel, opening the panel when it is folded away. */
function showSidePanel(tab: SidePanelTab): void {
  useSidePanel.getState().show(tab);
  if (!useEditorPrefs.getState().showInspector) useEditorPrefs.getState().toggle('showInspector');
}

/** The window's centre, where the palette opens when the canvas is not shown. */
function windowCentre(): { x: number; y: number } {
  const width: unknown = Reflect.get(globalThis, 'innerWidth');
  const height: unknown = Reflect.get(globalThis, 'innerHeight');
  return { x: typeof width === 'number' ? width / 2 : 0, y: typeof height === 'number' ? height / 2 : 0 };
}

export const COMMANDS: readonly NamedCommand[] = [
  { id: 'save', label: 'Save', group: 'File', keys: [{ key: 's', mod: true }], inFields: true, menu: 'file.save', enabled: (e) => !e.saving.busy, perform: (e) => e.host?.save() },
  { id: 'undo', label: 'Undo', group: 'Edit', keys: [{ key: 'z', mod: true }], menu: 'edit.undo', enabled: () => history().pastStates.length > 0, perform: () => undo() },
  {
    id: 'redo',
    label: 'Redo',
    group: 'Edit',
    keys: [{ key: 'z', mod: true, shift: true }, { key: 'y', mod: true }],
    menu: 'edit.redo',
    enabled: () => history().futureStates.length > 0,
    perform: () => redo(),
  },
  { id: 'copy', label: 'Copy steps', group: 'Edit', keys: [{ key: 'c', mod: true }], perform: (e) => copy(e, false) },
  { id: 'cut', label: 'Cut steps', group: 'Edit', keys: [{ key: 'x', mod: true }], perform: (e) => copy(e, true) },
  { id: 'paste', label: 'Paste steps', group: 'Edit', keys: [{ key: 'v', mod: true }], perform: (e) => paste(e, 'clipboard') },
  { id: 'duplicate', label: 'Duplicate', group: 'Edit', keys: [{ key: 'd', mod: true }], perform: (e) => paste(e, 'selection') },
  {
    id: 'delete',
    label: 'Delete selection',
    group: 'Edit',
    keys: [{ key: 'Delete' }, { key: 'Backspace' }],
    perform(e) {
      const { steps, edges } = e.selection;
      e.edit((d) => removeElements(d, steps, edges));
      e.select(NO_SELECTION);
    },
  },
  {
    id: 'selectAll',
    label: 'Select all',
    group: 'Edit',
    keys: [{ key: 'a', mod: true }],
    perform: (e) => e.select({ steps: e.doc?.steps.map((s) => s.id) ?? [], edges: e.doc?.edges.map((x) => x.id) ?? [] }),
  },
  {
    id: 'clearSelection',
    label: 'Clear selection',
    group: 'Edit',
    keys: [{ key: 'Escape' }],
    // Closes the cheat sheet or the palette first, when one is open.
    perform: (e) => (e.overlay !== null && e.overlay.kind !== 'newWorkflow' ? e.show(null) : e.select(NO_SELECTION)),
  },
  { id: 'addStep', label: 'Add a step (palette)', group: 'Canvas', keys: [{ key: 'n' }], perform: (e) => e.show({ kind: 'palette', at: e.view?.centre().screen ?? windowCentre() }) },
  {
    // The keyboard's way to draw an edge: pick the target step, then the outcome (outcome-picker.tsx).
    id: 'connectTo',
    label: 'Connect the selected step to…',
    group: 'Canvas',
    keys: [{ key: 'c' }],
    enabled: (e) => e.selection.steps.length === 1,
    perform(e) {
      const from = e.selection.steps[0];
      if (from !== undefined) e.show({ kind: 'connect', from });
    },
  },
  {
    id: 'autoLayout',
    label: 'Auto-layout',
    group: 'Canvas',
    keys: [{ key: 'l' }],
    enabled: (e) => !e.laying,
    perform(e) {
      if (e.doc === null || e.host === null) return;
      e.setLaying(true);
      return e.host
        .layout(e.doc)
        .then((laid) => useEditor.getState().edit((d) => withPositions(d, laid, laid)))
        .finally(() => useEditor.getState().setLaying(false))
        .then(() => useEditor.getState().view?.fitAll(), () => undefined);
    },
  },
  { id: 'fitView', label: 'Fit view', group: 'Canvas', keys: [{ key: 'f' }], perform: (e) => e.view?.fitAll() },
  {
    id: 'zoomSelection',
    label: 'Zoom to selection',
    group: 'Canvas',
    keys: [{ key: 'z' }],
    perform: (e) => (e.selection.steps.length > 0 ? e.view?.fitSteps(e.selection.steps, { padding: 0.4, maxZoom: 1.4 }) : undefined),
  },
  { id: 'zoomIn', label: 'Zoom in', group: 'Canvas', keys: [{ key: '=' }, { key: '+' }], perform: (e) => e.view?.zoomIn() },
  { id: 'zoomOut', label: 'Zoom out', group: 'Canvas', keys: [{ key: '-' }], perform: (e) => e.view?.zoomOut() },
  { id: 'toggleSnap', label: 'Snap to grid on/off', group: 'Canvas', keys: [{ key: 'g' }], perform: (e) => e.host?.togglePref('snapToGrid') },
  { id: 'toggleProblems', label: 'Problems panel', group: 'View', keys: [{ key: 'p' }], menu: 'view.panel.problems', perform: (e) => e.host?.togglePref('showProblems') },
  { id: 'togglePalette', label: 'Step palette', group: 'View', keys: [{ key: 'b' }], perform: (e) => e.host?.togglePref('showPalette') },
  { id: 'toggleInspector', label: 'Inspector panel', group: 'View', keys: [{ key: 'i', shift: true }], perform: (e) => e.host?.togglePref('showInspector') },
  { id: 'toggleMinimap', label: 'Minimap', group: 'View', keys: [{ key: 'm' }], perform: (e) => e.host?.togglePref('showMinimap') },
  {
    id: 'cheatSheet',
    label: 'Keyboard shortcuts',
    group: 'View',
    keys: [{ key: '?', shift: true }, { key: '?' }],
    perform: (e) => e.show(e.overlay?.kind === 'cheatSheet' ? null : { kind: 'cheatSheet' }),
  },
  { id: 'showShortcuts', label: 'Show keyboard shortcuts', group: 'View', keys: [], menu: 'help.shortcuts', perform: (e) => e.show({ kind: 'cheatSheet' }) },
  {
    // From the canvas to the selection's first field (the workflow's, with nothing selected).
    id: 'focusInspector',
    label: 'Go to the inspector',
    group: 'View',
    keys: [{ key: 'i' }],
    perform() {
      showSidePanel('inspect');
      useInspectorUi.getState().setTab('form');
      useInspectorUi.getState().focusLater(['id', 'name']);
    },
  },
  { id: 'showInspector', label: 'Inspector', group: 'View', keys: [], menu: 'view.panel.inspector', perform: () => showSidePanel('inspect') },
  { id: 'showHistory', label: 'Version history', group: 'View', keys: [], menu: 'view.panel.history', perform: () => showSidePanel('history') },
  {
    id: 'showHandoffs',
    label: 'Data handoffs',
    group: 'View',
    keys: [],
    menu: 'view.panel.handoffs',
    perform(e) {
      showSidePanel('inspect');
      if (e.selection.steps.length + e.selection.edges.length !== 1) return 'Select one step or edge: its data handoffs show under the inspector.';
      e.host?.revealHandoffs();
    },
  },
  { id: 'newWorkflow', label: 'New workflow…', group: 'File', keys: [], menu: 'file.new', perform: (e) => e.show({ kind: 'newWorkflow' }) },
  { id: 'renameFile', label: 'Rename…', group: 'File', keys: [], perform: (e) => e.host?.renameFile() },
  { id: 'exportFile', label: 'Export .weft.json', group: 'File', keys: [], menu: 'file.export', perform: (e) => e.host?.exportFile() },
  { id: 'importFile', label: 'Import .weft.json…', group: 'File', keys: [], menu: 'file.import', perform: (e) => e.host?.importFile() },
  { id: 'deleteFile', label: 'Delete…', group: 'File', keys: [], perform: (e) => e.host?.deleteFile() },
];

/** Every command, the named ones and those that take an argument. */
export const ALL_COMMANDS: readonly Pick<EditorCommand, 'id' | 'label' | 'keys'>[] = [...COMMANDS, insertStepCommand, revealCommand, focusFieldCommand];

export function commandById(id: CommandId): NamedCommand {
  const found = COMMANDS.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no editor command "${id}": add it to COMMANDS in renderer/editor/editor-commands.ts`);
  return found;
}

/** Is the command enabled in this state of the editor? Nothing is, with no document open. */
export function isEnabled<A>(command: EditorCommand<A>, editor: EditorState, arg: A): boolean {
  return editor.doc !== null && (command.enabled === undefined || command.enabled(editor, arg));
}

/**
 * Runs a command if it is enabled; what it returns is a line to show (why it did nothing).
 * A failure of work it left running is shown beside the editor's title.
 */
export function runCommand<A>(command: EditorCommand<A>, arg: A): string | undefined {
  const editor = useEditor.getState();
  if (!isEnabled(command, editor, arg)) return undefined;
  const result = command.perform(editor, arg);
  if (result instanceof Promise) {
    result.catch((error: unknown) => useEditor.getState().setSaving({ message: { kind: 'error', text: error instanceof Error ? error.message : String(error) } }));
    return undefined;
  }
  return typeof result === 'string' ? result : undefined;
}

/** Runs the named command (keys, toolbar, menus). */
export const run = (id: CommandId): string | undefined => runCommand(commandById(id), undefined);

export interface KeyLike {
  key: string;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

const matches = (b: KeyBinding, e: KeyLike): boolean => {
  const mod = e.metaKey || e.ctrlKey;
  if ((b.mod ?? false) !== mod || (b.alt ?? false) !== e.altKey) return false;
  // `?` needs Shift on most layouts: the binding's key decides, so Shift is not compared for it.
  if (b.key !== '?' && (b.shift ?? false) !== e.shiftKey) return false;
  return b.key.length === 1 ? e.key.toLowerCase() === b.key.toLowerCase() : e.key === b.key;
};

/** The command a key press means, if any; `inField` says a text field had focus. */
export function commandForKey(e: KeyLike, inField: boolean): NamedCommand | undefined {
  const found = COMMANDS.find((c) => c.keys.some((k) => matches(k, e)));
  if (found === undefined) return undefined;
  return inField && found.inFields !== true ? undefined : found;
}

/**
 * Answers a key press: when it is a command's key, claims the key (`claim` prevents the
 * browser's default) and runs the command if it is enabled. Says whether the key was claimed.
 */
export function runKey(e: KeyLike, inField: boolean, claim: () => void): boolean {
  const command = commandForKey(e, inField);
  if (command === undefined) return false;
  claim();
  runCommand(command, undefined);
  return true;
}

// Read through globalThis: this table is also loaded by tests in Node, which has no navigator.
const platform: unknown = Reflect.get(Reflect.get(globalThis, 'navigator') ?? {}, 'platform');
const IS_MAC = typeof platform === 'string' && /Mac|iPhone|iPad/.test(platform);

export function keyLabel(b: KeyBinding): string {
  const parts: string[] = [];
  if (b.mod) parts.push(IS_MAC ? '⌘' : 'Ctrl');
  if (b.shift && b.key !== '?') parts.push('Shift');
  if (b.alt) parts.push(IS_MAC ? '⌥' : 'Alt');
  parts.push(b.key.length === 1 ? b.key.toUpperCase() : b.key === 'Escape' ? 'Esc' : b.key);
  return parts.join('+');
}

/** The command's label with its first key, for a button's tooltip: "Undo (Ctrl+Z)". */
export function titleOf(id: CommandId): string {
  const command = commandById(id);
  const key = command.keys[0];
  return key === undefined ? command.label : `${command.label} (${keyLabel(key)})`;
}

export interface ShortcutGroup {
  group: CommandGroup;
  rows: { id: CommandId; label: string; keys: string[] }[];
}

/** The `?` cheat sheet: every command with keys, by group, each key label once. */
export function shortcutGroups(): ShortcutGroup[] {
  const groups: CommandGroup[] = ['File', 'Edit', 'Canvas', 'View'];
  return groups.map((group) => ({
    group,
    rows: COMMANDS.filter((c) => c.group === group && c.keys.length > 0).map((c) => ({ id: c.id, label: c.label, keys: [...new Set(c.keys.map(keyLabel))] })),
  }));
}
