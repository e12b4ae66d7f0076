// The native menus as a pure function of the platform and the app's state. Items the app acts on
// (save, undo, panels, runs, ...) send a MenuAction to the renderer, which decides what it means
// where the user is; native behaviour (cut/copy/paste, zoom, quit) uses Electron's roles.
// Accelerators match the app's own keys (renderer/editor/editor-commands.ts). Keys without a
// modifier are shown but not registered, so typing "p" in a text field still types a "p".
import type { MenuAction } from '../../shared/desktop/preload-contract.ts';
import type { MenuItemSpec } from './electron-seam.ts';
import type { Theme } from './settings.ts';

export interface MenuHandlers {
  action(action: MenuAction): void;
  openWorkspace(): void;
  openRecent(workspace: string): void;
  clearRecent(): void;
  openDocs(): void;
  about(): void;
}

export interface MenuState {
  appName: string;
  isPackaged: boolean;
  recentWorkspaces: readonly string[];
  theme: Theme;
  handlers: MenuHandlers;
}

const separator: MenuItemSpec = { type: 'separator' };

export function buildMenuTemplate(platform: NodeJS.Platform, state: MenuState): MenuItemSpec[] {
  const mac = platform === 'darwin';
  const { handlers } = state;
  const send = (id: MenuAction, label: string, accelerator?: string, shownOnly = false): MenuItemSpec => ({
    id,
    label,
    click: () => handlers.action(id),
    ...(accelerator === undefined ? {} : { accelerator }),
    ...(shownOnly ? { registerAccelerator: false } : {}),
  });
  const theme = (value: Theme, label: string): MenuItemSpec => ({ ...send(`view.theme.${value}`, label), type: 'radio', checked: state.theme === value });

  const recent: MenuItemSpec[] =
    state.recentWorkspaces.length === 0
      ? [{ id: 'file.recent.none', label: 'No recent workspaces', enabled: false }]
      : [
          ...state.recentWorkspaces.slice(0, 10).map((workspace, i): MenuItemSpec => ({ id: `file.recent.${i}`, label: workspace, click: () => handlers.openRecent(workspace) })),
          separator,
          { id: 'file.recent.clear', label: 'Clear recent workspaces', click: () => handlers.clearRecent() },
        ];

  const file: MenuItemSpec = {
    label: '&File',
    submenu: [
      send('file.new', 'New workflow', 'CmdOrCtrl+N'),
      { id: 'file.open-workspace', label: 'Open workspace folder…', accelerator: 'CmdOrCtrl+O', click: () => handlers.openWorkspace() },
      { id: 'file.recent', label: 'Open recent', submenu: recent },
      separator,
      send('file.save', 'Save', 'CmdOrCtrl+S'),
      separator,
      send('file.import', 'Import…'),
      send('file.export', 'Export…'),
      separator,
      send('file.reveal', mac ? 'Reveal in Finder' : platform === 'win32' ? 'Reveal in File Explorer' : 'Reveal in file manager'),
      ...(mac ? [] : [separator, { role: 'quit', label: 'Quit' } satisfies MenuItemSpec]),
    ],
  };

  const edit: MenuItemSpec = {
    label: '&Edit',
    submenu: [
      send('edit.undo', 'Undo', 'CmdOrCtrl+Z'),
      send('edit.redo', 'Redo', mac ? 'Shift+CmdOrCtrl+Z' : 'CmdOrCtrl+Y'),
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };

  const view: MenuItemSpec = {
    label: '&View',
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { id: 'view.theme', label: 'Theme', submenu: [theme('light', 'Light'), theme('dark', 'Dark'), theme('system', 'System')] },
      separator,
      send('view.panel.problems', 'Problems', 'P', true),
      send('view.panel.history', 'History'),
      send('view.panel.handoffs', 'Handoffs'),
      send('view.panel.inspector', 'Inspector'),
      separator,
      { role: 'togglefullscreen' },
      ...(state.isPackaged ? [] : [separator, { role: 'toggleDevTools' } satisfies MenuItemSpec]),
    ],
  };

  const run: MenuItemSpec = {
    label: '&Run',
    submenu: [send('run.start', 'Start run…'), send('run.pause', 'Pause'), send('run.resume', 'Resume'), send('run.cancel', 'Cancel run…')],
  };

  const help: MenuItemSpec = {
    label: '&Help',
    submenu: [
      { id: 'help.docs', label: 'Documentation', click: () => handlers.openDocs() },
      send('help.shortcuts', 'Keyboard shortcuts', '?', true),
      ...(mac ? [] : [separator, { id: 'help.about', label: `About ${state.appName}`, click: () => handlers.about() } satisfies MenuItemSpec]),
    ],
  };

  if (!mac) return [file, edit, view, run, help];
  const appMenu: MenuItemSpec = {
    label: state.appName,
    submenu: [{ role: 'about' }, separator, { role: 'services' }, separator, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, separator, { role: 'quit' }],
  };
  return [appMenu, file, edit, view, run, { role: 'windowMenu' }, help];
}
