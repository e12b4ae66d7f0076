// What an editor command is: an id, a label, its keys, when it is enabled and what it does to
// the editor. One shape for every way in (keys, toolbar, menus, palette, canvas, panels), in the
// manner of Excalidraw's actions and VS Code's commands.
import type { MenuAction } from '../../shared/desktop/preload-contract.ts';
import type { EditorState } from './editor-store.ts';

export interface KeyBinding {
  key: string;
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
}

/** The commands reachable by name: keys, toolbar buttons, menu items. */
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
  | 'connectTo'
  | 'focusInspector'
  | 'autoLayout'
  | 'fitView'
  | 'zoomSelection'
  | 'zoomIn'
  | 'zoomOut'
  | 'toggleSnap'
  | 'toggleProblems'
  | 'togglePalette'
  | 'toggleInspector'
  | 'toggleMinimap'
  | 'cheatSheet'
  | 'showShortcuts'
  | 'showInspector'
  | 'showHistory'
  | 'showHandoffs'
  | 'newWorkflow'
  | 'renameFile'
  | 'exportFile'
  | 'importFile'
  | 'deleteFile';

export type CommandGroup = 'File' | 'Edit' | 'Canvas' | 'View';

/** A line to show the user (why the command did nothing), or work still under way. */
export type CommandResult = string | void | Promise<void>;

export interface EditorCommand<A = void> {
  id: string;
  label: string;
  group: CommandGroup;
  /** Keys that run it; the `?` cheat sheet lists them. Where a key means two things, `when` decides. */
  keys: readonly KeyBinding[];
  /** Runs even while a text field has focus (saving does; deleting does not). */
  inFields?: boolean;
  /** The desktop menu item that runs it. */
  menu?: MenuAction;
  /** Left out: enabled while a document is open. A disabled command does nothing, however it is called. */
  enabled?(editor: EditorState, arg: A): boolean;
  perform(editor: EditorState, arg: A): CommandResult;
}

/** A command called by name, taking no argument. */
export interface NamedCommand extends EditorCommand {
  id: CommandId;
}
