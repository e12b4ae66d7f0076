// Native menu actions in the app, without a DOM: what each action means (menuEffect), which
// registered handler answers it (newest page first, then the app's fallback), and what the
// dispatcher does with the answer.
import { afterEach, describe, expect, it } from 'vitest';
import { MENU_ACTIONS, type MenuAction } from '../../../shared/desktop/preload-contract.ts';
import { menuEffect } from '../../../renderer/desktop/menu-routing.ts';
import { menuHandlerFor, registerMenuHandler } from '../../../renderer/core/menu-handlers.ts';
import { dispatchMenuAction, type MenuPorts } from '../../../renderer/desktop/menu-dispatch.ts';

const offs: (() => void)[] = [];
const register = (...args: Parameters<typeof registerMenuHandler>) => offs.push(registerMenuHandler(...args));
afterEach(() => offs.splice(0).forEach((off) => off()));

function ports() {
  const calls: string[] = [];
  const p: MenuPorts = {
    setTheme: (choice) => calls.push(`theme:${choice}`),
    fieldCommand: (command) => calls.push(`field:${command}`),
    note: (text) => calls.push(`note:${text}`),
  };
  return { p, calls };
}

describe('menuEffect', () => {
  it.each([
    ['view.theme.light', { kind: 'theme', choice: 'light' }],
    ['view.theme.dark', { kind: 'theme', choice: 'dark' }],
    ['view.theme.system', { kind: 'theme', choice: 'system' }],
    ['file.reveal', { kind: 'none' }],
  ] as const)('%s means %o wherever the focus is', (action, effect) => {
    expect(menuEffect(action, { textField: false })).toEqual(effect);
    expect(menuEffect(action, { textField: true })).toEqual(effect);
  });

  it('undo and redo are the text field’s own while one has focus, the page’s otherwise', () => {
    expect(menuEffect('edit.undo', { textField: true })).toEqual({ kind: 'field', command: 'undo' });
    expect(menuEffect('edit.redo', { textField: true })).toEqual({ kind: 'field', command: 'redo' });
    expect(menuEffect('edit.undo', { textField: false })).toMatchObject({ kind: 'handler', action: 'edit.undo' });
    expect(menuEffect('edit.redo', { textField: false })).toMatchObject({ kind: 'handler', action: 'edit.redo' });
  });

  it('every other action goes to a handler, with a line for a page that has none', () => {
    const direct = new Set<MenuAction>(['view.theme.light', 'view.theme.dark', 'view.theme.system', 'file.reveal']);
    for (const action of MENU_ACTIONS.filter((a) => !direct.has(a))) {
      const effect = menuEffect(action, { textField: action === 'file.save' });
      expect(effect.kind, action).toBe('handler');
      if (effect.kind === 'handler') {
        expect(effect.action).toBe(action);
        expect(effect.unavailable.length, action).toBeGreaterThan(10);
      }
    }
  });
});

describe('menu handlers', () => {
  it('the newest page handler wins over older ones and over any fallback, and unregistering restores the next', () => {
    const said: string[] = [];
    register('file.new', () => void said.push('app'), { fallback: true });
    const offPage = registerMenuHandler('file.new', () => void said.push('workflows page'));
    const offEditor = registerMenuHandler('file.new', () => void said.push('editor'));
    menuHandlerFor('file.new')?.();
    offEditor();
    menuHandlerFor('file.new')?.();
    offPage();
    menuHandlerFor('file.new')?.();
    offEditor();
    expect(said).toEqual(['editor', 'workflows page', 'app']);
    expect(menuHandlerFor('file.save')).toBeUndefined();
  });

  it('a fallback registered after a page handler does not override it', () => {
    const said: string[] = [];
    register('help.shortcuts', () => void said.push('editor'));
    register('help.shortcuts', () => void said.push('app'), { fallback: true });
    menuHandlerFor('help.shortcuts')?.();
    expect(said).toEqual(['editor']);
  });
});

describe('dispatchMenuAction', () => {
  it('sets the theme through the port', () => {
    const { p, calls } = ports();
    dispatchMenuAction('view.theme.dark', { textField: false }, p);
    expect(calls).toEqual(['theme:dark']);
  });

  it('undo in a text field is the field’s; elsewhere the registered editor undo runs', () => {
    const { p, calls } = ports();
    let editorUndos = 0;
    register('edit.undo', () => void editorUndos++);
    dispatchMenuAction('edit.undo', { textField: true }, p);
    expect(calls).toEqual(['field:undo']);
    expect(editorUndos).toBe(0);
    dispatchMenuAction('edit.undo', { textField: false }, p);
    expect(editorUndos).toBe(1);
    expect(calls).toEqual(['field:undo']);
  });

  it('notes why when no page handles the action, and shows a line the handler returns', () => {
    const { p, calls } = ports();
    dispatchMenuAction('run.pause', { textField: false }, p);
    expect(calls).toEqual(['note:Open a run to pause it.']);
    register('run.pause', () => 'The engine does not permit pause now: the run has succeeded.');
    dispatchMenuAction('run.pause', { textField: false }, p);
    expect(calls.at(-1)).toBe('note:The engine does not permit pause now: the run has succeeded.');
    register('file.save', () => undefined);
    dispatchMenuAction('file.save', { textField: false }, p);
    expect(calls).toHaveLength(2);
  });

  it('does nothing in the app for file.reveal (the shell reveals the file itself)', () => {
    const { p, calls } = ports();
    let ran = false;
    register('file.reveal', () => void (ran = true));
    dispatchMenuAction('file.reveal', { textField: false }, p);
    expect(ran).toBe(false);
    expect(calls).toEqual([]);
  });
});
