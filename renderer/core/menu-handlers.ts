// The pages' answers to native menu actions: a page registers what an action means while it is
// shown (the editor's save, the run page's pause), and the app registers fallbacks (new workflow,
// import, shortcuts) that a page may override. The newest page registration wins.
import { useEffect, useRef } from 'react';
import { MENU_ACTIONS, type MenuAction } from '../../shared/desktop/preload-contract.ts';

/** Does what the action means here; a returned line is shown to the user (why it did not). */
export type MenuHandler = () => string | void;

interface Entry {
  action: MenuAction;
  handler: MenuHandler;
  fallback: boolean;
}

const entries: Entry[] = [];

export function registerMenuHandler(action: MenuAction, handler: MenuHandler, options: { fallback?: boolean } = {}): () => void {
  const entry: Entry = { action, handler, fallback: options.fallback ?? false };
  entries.push(entry);
  return () => {
    const at = entries.indexOf(entry);
    if (at >= 0) entries.splice(at, 1);
  };
}

/** The handler for `action` now: the newest page's, else the newest fallback. */
export function menuHandlerFor(action: MenuAction): MenuHandler | undefined {
  const mine = entries.filter((e) => e.action === action);
  return (mine.findLast((e) => !e.fallback) ?? mine.findLast((e) => e.fallback))?.handler;
}

/** Registers `handlers` while the component is mounted; they may close over fresh state. */
export function useMenuHandlers(handlers: Partial<Record<MenuAction, MenuHandler>>, options: { fallback?: boolean } = {}): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const actions = Object.keys(handlers).sort().join(' ');
  const fallback = options.fallback ?? false;
  useEffect(() => {
    const offs = actions
      .split(' ')
      .filter((a) => a !== '')
      .flatMap((name) => {
        const action = MENU_ACTIONS.find((a) => a === name);
        return action === undefined ? [] : [registerMenuHandler(action, () => latest.current[action]?.(), { fallback })];
      });
    return () => offs.forEach((off) => off());
  }, [actions, fallback]);
}
