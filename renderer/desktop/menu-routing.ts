// What a native menu action does in the app, decided without the DOM: the theme at once, a text
// field's own undo when one has focus, else the handler the current page registered for it (with
// the line to show when the page has none).
import type { MenuAction } from '../../shared/desktop/preload-contract.ts';
import type { ThemeChoice } from '../core/theme-choice.ts';

export type MenuEffect =
  | { kind: 'theme'; choice: ThemeChoice }
  /** The focused text field's own undo or redo (the browser's, CodeMirror's). */
  | { kind: 'field'; command: 'undo' | 'redo' }
  | { kind: 'handler'; action: MenuAction; unavailable: string }
  /** Handled by the desktop shell itself. */
  | { kind: 'none' };

export interface MenuContext {
  /** A text input, textarea or editable element has focus. */
  textField: boolean;
}

const UNAVAILABLE: Record<MenuAction, string> = {
  'file.new': 'The app is still starting: try again in a moment.',
  'file.save': 'Nothing to save here: Save writes the workflow open in the editor.',
  'file.import': 'The app is still starting: try again in a moment.',
  'file.export': 'Open a workflow in the editor to export it.',
  'file.reveal': '',
  'edit.undo': 'Nothing to undo here: undo works in the editor and in text fields.',
  'edit.redo': 'Nothing to redo here: redo works in the editor and in text fields.',
  'view.theme.light': '',
  'view.theme.dark': '',
  'view.theme.system': '',
  'view.panel.problems': 'The Problems panel belongs to the editor: open a workflow first.',
  'view.panel.history': 'The History panel belongs to the editor: open a workflow first.',
  'view.panel.handoffs': 'The handoffs panel belongs to the editor: open a workflow first.',
  'view.panel.inspector': 'The inspector belongs to the editor: open a workflow first.',
  'run.start': 'Open a workflow, Runs or Tasks to start a run.',
  'run.pause': 'Open a run to pause it.',
  'run.resume': 'Open a run to resume it.',
  'run.cancel': 'Open a run to cancel it.',
  'help.shortcuts': 'The app is still starting: try again in a moment.',
};

export function menuEffect(action: MenuAction, context: MenuContext): MenuEffect {
  switch (action) {
    case 'view.theme.light':
      return { kind: 'theme', choice: 'light' };
    case 'view.theme.dark':
      return { kind: 'theme', choice: 'dark' };
    case 'view.theme.system':
      return { kind: 'theme', choice: 'system' };
    // The shell reveals the file named in the last document state; the app has nothing to add.
    case 'file.reveal':
      return { kind: 'none' };
    case 'edit.undo':
    case 'edit.redo':
      // Typing in a field is not an editor undo step: the field undoes its own text.
      if (context.textField) return { kind: 'field', command: action === 'edit.undo' ? 'undo' : 'redo' };
      return { kind: 'handler', action, unavailable: UNAVAILABLE[action] };
    default:
      return { kind: 'handler', action, unavailable: UNAVAILABLE[action] };
  }
}
