import { describe, expect, it } from 'vitest';
import { MENU_ACTIONS, type MenuAction } from '../../shared/desktop/preload-contract.ts';
import type { MenuItemSpec } from '../../electron/main/electron-seam.ts';
import { buildMenuTemplate, type MenuHandlers, type MenuState } from '../../electron/main/menu.ts';

function state(over: Partial<MenuState> = {}): { state: MenuState; calls: string[] } {
  const calls: string[] = [];
  const handlers: MenuHandlers = {
    action: (a) => calls.push(`action ${a}`),
    openWorkspace: () => calls.push('openWorkspace'),
    openRecent: (w) => calls.push(`openRecent ${w}`),
    clearRecent: () => calls.push('clearRecent'),
    openDocs: () => calls.push('openDocs'),
    about: () => calls.push('about'),
  };
  return { state: { appName: 'Weft Studio', isPackaged: true, recentWorkspaces: [], theme: 'system', handlers, ...over }, calls };
}

const all = (items: readonly MenuItemSpec[]): MenuItemSpec[] => items.flatMap((i) => [i, ...all(i.submenu ?? [])]);
const byId = (items: readonly MenuItemSpec[], id: string): MenuItemSpec => {
  const found = all(items).find((i) => i.id === id);
  if (found === undefined) throw new Error(`no item ${id}`);
  return found;
};
const labels = (items: readonly MenuItemSpec[]): Array<string | undefined> => items.map((i) => i.label ?? i.role);
const submenu = (items: readonly MenuItemSpec[], label: string): MenuItemSpec[] => items.find((i) => i.label === label)?.submenu ?? [];

describe('menu structure', () => {
  it('Linux and Windows: File, Edit, View, Run, Help; Quit and About inside them', () => {
    const menu = buildMenuTemplate('linux', state().state);
    expect(labels(menu)).toEqual(['&File', '&Edit', '&View', '&Run', '&Help']);
    expect(submenu(menu, '&File').filter((i) => i.type !== 'separator').map((i) => i.label)).toEqual(['New workflow', 'Open workspace folder…', 'Open recent', 'Save', 'Import…', 'Export…', 'Reveal in file manager', 'Quit']);
    expect(submenu(menu, '&File').at(-1)?.role).toBe('quit');
    expect(byId(menu, 'help.about').label).toBe('About Weft Studio');
    expect(labels(buildMenuTemplate('win32', state().state))).toEqual(['&File', '&Edit', '&View', '&Run', '&Help']);
    expect(byId(buildMenuTemplate('win32', state().state), 'file.reveal').label).toBe('Reveal in File Explorer');
  });

  it('macOS: an app menu with about, hide and quit, a Window menu, and no Quit in File', () => {
    const menu = buildMenuTemplate('darwin', state().state);
    expect(labels(menu)).toEqual(['Weft Studio', '&File', '&Edit', '&View', '&Run', 'windowMenu', '&Help']);
    expect(menu[0]?.submenu?.map((i) => i.role).filter(Boolean)).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(all(submenu(menu, '&File')).some((i) => i.role === 'quit')).toBe(false);
    expect(all(menu).some((i) => i.id === 'help.about')).toBe(false);
    expect(byId(menu, 'file.reveal').label).toBe('Reveal in Finder');
  });

  it('Edit: undo and redo go to the app; cut, copy, paste and select all are native roles', () => {
    const edit = submenu(buildMenuTemplate('linux', state().state), '&Edit');
    expect(edit.slice(0, 2).map((i) => i.id)).toEqual(['edit.undo', 'edit.redo']);
    expect(edit.map((i) => i.role).filter(Boolean)).toEqual(['cut', 'copy', 'paste', 'selectAll']);
  });

  it('View: zoom roles, themes as radio items with the current one checked, panels', () => {
    const menu = buildMenuTemplate('linux', state({ theme: 'dark' }).state);
    expect(submenu(menu, '&View').map((i) => i.role).filter(Boolean)).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
    const themes = byId(menu, 'view.theme').submenu ?? [];
    expect(themes.map((i) => [i.label, i.type, i.checked])).toEqual([['Light', 'radio', false], ['Dark', 'radio', true], ['System', 'radio', false]]);
  });

  it('toggle devtools only when not packaged', () => {
    expect(all(buildMenuTemplate('linux', state({ isPackaged: true }).state)).some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(all(buildMenuTemplate('linux', state({ isPackaged: false }).state)).some((i) => i.role === 'toggleDevTools')).toBe(true);
  });

  it('accelerators follow the app: mod+S, mod+Z, redo per platform; bare keys are shown, not registered', () => {
    const linux = buildMenuTemplate('linux', state().state);
    expect(byId(linux, 'file.save').accelerator).toBe('CmdOrCtrl+S');
    expect(byId(linux, 'edit.undo').accelerator).toBe('CmdOrCtrl+Z');
    expect(byId(linux, 'edit.redo').accelerator).toBe('CmdOrCtrl+Y');
    expect(byId(buildMenuTemplate('darwin', state().state), 'edit.redo').accelerator).toBe('Shift+CmdOrCtrl+Z');
    for (const id of ['view.panel.problems', 'help.shortcuts']) {
      expect(byId(linux, id).accelerator, id).toMatch(/^[^+]+$/);
      expect(byId(linux, id).registerAccelerator, id).toBe(false);
    }
    for (const item of all(linux)) if (item.accelerator !== undefined && item.registerAccelerator !== false) expect(item.accelerator, item.id).toMatch(/CmdOrCtrl\+/);
  });

  it('Open recent lists the recent workspaces (at most 10) and a clear item; none: one disabled line', () => {
    const none = byId(buildMenuTemplate('linux', state().state), 'file.recent').submenu ?? [];
    expect(none).toEqual([{ id: 'file.recent.none', label: 'No recent workspaces', enabled: false }]);
    const many = Array.from({ length: 12 }, (_, i) => `/ws/${i}`);
    const { state: s, calls } = state({ recentWorkspaces: many });
    const recent = byId(buildMenuTemplate('linux', s), 'file.recent').submenu ?? [];
    expect(recent.filter((i) => i.id?.match(/^file\.recent\.\d+$/)).map((i) => i.label)).toEqual(many.slice(0, 10));
    recent[3]?.click?.();
    byId(buildMenuTemplate('linux', s), 'file.recent.clear').click?.();
    expect(calls).toEqual(['openRecent /ws/3', 'clearRecent']);
  });
});

describe('menu clicks', () => {
  it.each(['linux', 'darwin'] as const)('on %s, every MenuAction has exactly one item, and clicking it sends that action', (platform) => {
    const { state: s, calls } = state({ isPackaged: false });
    const items = all(buildMenuTemplate(platform, s));
    for (const action of MENU_ACTIONS) {
      const matching = items.filter((i) => i.id === action);
      expect(matching, action).toHaveLength(1);
      calls.length = 0;
      matching[0]?.click?.();
      expect(calls, action).toEqual([`action ${action satisfies MenuAction}`]);
    }
  });

  it('open workspace, documentation and about call their handlers', () => {
    const { state: s, calls } = state();
    const menu = buildMenuTemplate('linux', s);
    for (const id of ['file.open-workspace', 'help.docs', 'help.about']) byId(menu, id).click?.();
    expect(calls).toEqual(['openWorkspace', 'openDocs', 'about']);
  });

  it('role items carry no click of their own (Electron performs them)', () => {
    for (const item of all(buildMenuTemplate('darwin', state().state))) if (item.role !== undefined) expect(item.click, item.role).toBeUndefined();
  });
});
