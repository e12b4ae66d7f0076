// The editor's commands wired to the page while the editor is shown: the keys (one window
// listener), the desktop menu items and the browser's services; and whether a command is enabled, for its button.
import { useEffect } from 'react';
import type { MenuAction } from '../../shared/desktop/preload-contract.ts';
import { useMenuHandlers, type MenuHandler } from '../core/menu-handlers.ts';
import { useEditor, useHistory } from './editor-store.ts';
import { COMMANDS, commandById, isEnabled, runCommand, runKey, type CommandId } from './editor-commands.ts';
import { BROWSER_HOST } from './editor-host.ts';

/** Whether the named command is enabled now; follows the document, the selection and the undo history. */
export function useCommandEnabled(id: CommandId): boolean {
  const command = commandById(id);
  // The undo history changes after the document does: subscribe to it so its changes re-render too.
  useHistory((t) => `${t.pastStates.length}/${t.futureStates.length}`);
  return useEditor((s) => isEnabled(command, s, undefined));
}

const MENU_HANDLERS: Partial<Record<MenuAction, MenuHandler>> = {};
for (const command of COMMANDS) {
  if (command.menu !== undefined) MENU_HANDLERS[command.menu] = () => runCommand(command, undefined);
}

/** Runs the commands from their keys and from the desktop menus while the editor is mounted. */
export function useEditorCommands(): void {
  useMenuHandlers(MENU_HANDLERS);
  useEffect(() => {
    useEditor.getState().setHost(BROWSER_HOST);
    return () => useEditor.getState().setHost(null);
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target;
      const inField = target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
      // Popovers and dialogs handle their own keys.
      if (target instanceof HTMLElement && target.closest('[role="dialog"]') !== null && event.key !== 'Escape') return;
      runKey(event, inField, () => event.preventDefault());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
