// Carries out a native menu action: menuEffect decides, the registered handlers and the ports act.
// The ports are the few things that touch the DOM or the stores, so this runs in tests as is.
import type { MenuAction } from '../../shared/desktop/preload-contract.ts';
import type { ThemeChoice } from '../core/theme-choice.ts';
import { menuEffect, type MenuContext } from './menu-routing.ts';
import { menuHandlerFor } from '../core/menu-handlers.ts';

export interface MenuPorts {
  setTheme(choice: ThemeChoice): void;
  /** The focused field's own undo or redo. */
  fieldCommand(command: 'undo' | 'redo'): void;
  /** Shows one line: why an action did nothing here. */
  note(text: string): void;
}

export function dispatchMenuAction(action: MenuAction, context: MenuContext, ports: MenuPorts): void {
  const effect = menuEffect(action, context);
  switch (effect.kind) {
    case 'theme':
      ports.setTheme(effect.choice);
      return;
    case 'field':
      ports.fieldCommand(effect.command);
      return;
    case 'handler': {
      const handler = menuHandlerFor(effect.action);
      const said = handler === undefined ? effect.unavailable : handler();
      if (typeof said === 'string' && said !== '') ports.note(said);
      return;
    }
    case 'none':
      return;
  }
}
