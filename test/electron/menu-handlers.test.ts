// Clicking a menu item in main: the page hears the action on DESKTOP_CHANNELS.menuAction.
import { describe, expect, it } from 'vitest';
import { DESKTOP_CHANNELS, MENU_ACTIONS } from '../../shared/desktop/preload-contract.ts';
import type { MenuItemSpec } from '../../electron/main/electron-seam.ts';
import { buildMenuTemplate } from '../../electron/main/menu.ts';
import { DOCS_URL, menuHandlers, type MenuHandlerDeps } from '../../electron/main/menu-handlers.ts';
import type { Theme } from '../../electron/main/settings.ts';
import { FakeElectron, windowOptions } from './fake-electron.ts';

function setup(documentFile?: string): { electron: FakeElectron; sent: () => unknown[]; themes: Theme[]; switched: string[]; menu: MenuItemSpec[] } {
  const electron = new FakeElectron();
  const window = electron.createWindow(windowOptions());
  const themes: Theme[] = [];
  const switched: string[] = [];
  const deps: MenuHandlerDeps = {
    window: () => window,
    workspace: () => '/ws',
    documentFile: () => documentFile,
    setTheme: (t) => themes.push(t),
    switchWorkspace: async (f) => (switched.push(f), true),
    clearRecent: () => undefined,
    log: () => undefined,
  };
  const menu = buildMenuTemplate('linux', { appName: 'Weft Studio', isPackaged: true, recentWorkspaces: ['/recent/one'], theme: 'system', handlers: menuHandlers(electron, deps) });
  return { electron, sent: () => window.webContents.sent.filter((m) => m.channel === DESKTOP_CHANNELS.menuAction).map((m) => m.payload), themes, switched, menu };
}

const all = (items: readonly MenuItemSpec[]): MenuItemSpec[] => items.flatMap((i) => [i, ...all(i.submenu ?? [])]);
const click = (menu: MenuItemSpec[], id: string): void => all(menu).find((i) => i.id === id)?.click?.();

describe('menu clicks reach the page', () => {
  it('every app action but reveal is sent as DESKTOP_CHANNELS.menuAction', () => {
    const { menu, sent } = setup();
    for (const action of MENU_ACTIONS) click(menu, action);
    expect(sent()).toEqual(MENU_ACTIONS.filter((a) => a !== 'file.reveal'));
  });

  it('a theme choice is also remembered', () => {
    const { menu, themes } = setup();
    click(menu, 'view.theme.dark');
    click(menu, 'view.theme.light');
    expect(themes).toEqual(['dark', 'light']);
  });

  it('reveal shows the open workflow in the file manager, else the workspace, never a path outside it', () => {
    const a = setup('sub/flow.weft.json');
    click(a.menu, 'file.reveal');
    expect(a.electron.revealed).toEqual(['/ws/sub/flow.weft.json']);
    const b = setup();
    click(b.menu, 'file.reveal');
    expect(b.electron.revealed).toEqual(['/ws']);
    const c = setup('../../etc/passwd');
    click(c.menu, 'file.reveal');
    expect(c.electron.revealed).toEqual(['/ws']);
  });

  it('open recent switches the workspace; open workspace folder asks for a folder first', async () => {
    const { menu, switched, electron } = setup();
    click(menu, 'file.recent.0');
    electron.openDialogAnswer = { canceled: false, filePaths: ['/picked'] };
    click(menu, 'file.open-workspace');
    await expect.poll(() => switched).toEqual(['/recent/one', '/picked']);
    expect(electron.openDialogs[0]).toMatchObject({ properties: ['openDirectory', 'createDirectory'] });
  });

  it('documentation opens in the browser; about shows the version', () => {
    const { menu, electron } = setup();
    click(menu, 'help.docs');
    click(menu, 'help.about');
    expect(electron.opened).toEqual([DOCS_URL]);
    expect(electron.messageBoxes[0]?.message).toBe('Weft Studio 0.1.0');
  });
});
