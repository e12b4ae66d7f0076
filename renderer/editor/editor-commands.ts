// The editor's commands and their keys: one table, read by the keyboard handler and by the
// cheat sheet (`?`), so a key shown is a key that works.

export type CommandId =
  | 'save'
  | 'undo'
  | 'redo'
  | 'delete'
  | 'copy'
  | 'cut'
  | 'paste'
  | 'duplicate'
  | 'selectAll'
  | 'clearSelection'
  | 'addStep'
  | 'autoLayout'
  | 'fitView'
  | 'zoomSelection'
  | 'zoomIn'
  | 'zoomOut'
  | 'toggleSnap'
  | 'toggleProblems'
  | 'togglePalette'
  | 'cheatSheet';

export interface KeyBinding {
  key: string;
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
}

export interface CommandSpec {
  id: CommandId;
  label: string;
  group: 'File' | 'Edit' | 'Canvas' | 'View';
  keys: KeyBinding[];
  /** Runs even while a text field has focus (saving does; deleting does not). */
  inFields?: boolean;
}

export const COMMANDS: readonly CommandSpec[] = [
  { id: 'save', label: 'Save', group: 'File', keys: [{ key: 's', mod: true }], inFields: true },
  { id: 'undo', label: 'Undo', group: 'Edit', keys: [{ key: 'z', mod: true }] },
  { id: 'redo', label: 'Redo', group: 'Edit', keys: [{ key: 'z', mod: true, shift: true }, { key: 'y', mod: true }] },
  { id: 'copy', label: 'Copy steps', group: 'Edit', keys: [{ key: 'c', mod: true }] },
  { id: 'cut', label: 'Cut steps', group: 'Edit', keys: [{ key: 'x', mod: true }] },
  { id: 'paste', label: 'Paste steps', group: 'Edit', keys: [{ key: 'v', mod: true }] },
  { id: 'duplicate', label: 'Duplicate', group: 'Edit', keys: [{ key: 'd', mod: true }] },
  { id: 'delete', label: 'Delete selection', group: 'Edit', keys: [{ key: 'Delete' }, { key: 'Backspace' }] },
  { id: 'selectAll', label: 'Select all', group: 'Edit', keys: [{ key: 'a', mod: true }] },
  { id: 'clearSelection', label: 'Clear selection', group: 'Edit', keys: [{ key: 'Escape' }] },
  { id: 'addStep', label: 'Add a step (palette)', group: 'Canvas', keys: [{ key: 'n' }] },
  { id: 'autoLayout', label: 'Auto-layout', group: 'Canvas', keys: [{ key: 'l' }] },
  { id: 'fitView', label: 'Fit view', group: 'Canvas', keys: [{ key: 'f' }] },
  { id: 'zoomSelection', label: 'Zoom to selection', group: 'Canvas', keys: [{ key: 'z' }] },
  { id: 'zoomIn', label: 'Zoom in', group: 'Canvas', keys: [{ key: '=' }, { key: '+' }] },
  { id: 'zoomOut', label: 'Zoom out', group: 'Canvas', keys: [{ key: '-' }] },
  { id: 'toggleSnap', label: 'Snap to grid on/off', group: 'Canvas', keys: [{ key: 'g' }] },
  { id: 'toggleProblems', label: 'Problems panel', group: 'View', keys: [{ key: 'p' }] },
  { id: 'togglePalette', label: 'Step palette', group: 'View', keys: [{ key: 'b' }] },
  { id: 'cheatSheet', label: 'Keyboard shortcuts', group: 'View', keys: [{ key: '?', shift: true }, { key: '?' }] },
];

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
export function commandForKey(e: KeyLike, inField: boolean): CommandSpec | undefined {
  const found = COMMANDS.find((c) => c.keys.some((k) => matches(k, e)));
  if (found === undefined) return undefined;
  return inField && found.inFields !== true ? undefined : found;
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
