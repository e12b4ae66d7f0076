// What the menu items do in main: app actions go to the page as DESKTOP_CHANNELS.menuAction;
// a theme choice is also remembered in the settings; "reveal" is done here, since only main
// knows the file's path on disk; the documentation opens in the browser after the link check.
import { isAbsolute, join, relative } from 'node:path';
import { DESKTOP_CHANNELS, type MenuAction } from '../../shared/desktop/preload-contract.ts';
import type { ElectronSeam, WindowSeam } from './electron-seam.ts';
import { checkExternalLink } from './link-check.ts';
import type { MenuHandlers } from './menu.ts';
import type { Theme } from './settings.ts';

/** The documentation's address (the docs/ folder of the release); opened through the link check. */
export const DOCS_URL = 'https://weft.dev/docs';

const THEME_OF: Partial<Record<MenuAction, Theme>> = { 'view.theme.light': 'light', 'view.theme.dark': 'dark', 'view.theme.system': 'system' };

export interface MenuHandlerDeps {
  window(): WindowSeam | undefined;
  workspace(): string | undefined;
  /** The open workflow's file within the workspace, as the app last reported it. */
  documentFile(): string | undefined;
  setTheme(theme: Theme): void;
  switchWorkspace(folder: string): Promise<boolean>;
  clearRecent(): void;
  log(line: string): void;
}

export function menuHandlers(electron: ElectronSeam, deps: MenuHandlerDeps): MenuHandlers {
  const send = (action: MenuAction): void => {
    const window = deps.window();
    if (window !== undefined && !window.isDestroyed()) window.webContents.send(DESKTOP_CHANNELS.menuAction, action);
  };
  return {
    action(action) {
      if (action === 'file.reveal') return reveal(electron, deps);
      const theme = THEME_OF[action];
      if (theme !== undefined) deps.setTheme(theme);
      send(action);
    },
    openWorkspace() {
      const window = deps.window();
      if (window === undefined) return;
      void electron.dialog.showOpenDialog(window, { title: 'Open workspace folder', properties: ['openDirectory', 'createDirectory'] }).then(async (answer) => {
        const folder = answer.filePaths[0];
        if (!answer.canceled && folder !== undefined) await deps.switchWorkspace(folder);
      });
    },
    openRecent(workspace) {
      void deps.switchWorkspace(workspace);
    },
    clearRecent() {
      deps.clearRecent();
    },
    openDocs() {
      const verdict = checkExternalLink(DOCS_URL, undefined);
      if (verdict.ok) void electron.shell.openExternal(verdict.url);
      else deps.log(`documentation link refused: ${verdict.reason}`);
    },
    about() {
      const window = deps.window();
      if (window === undefined) return;
      void electron.dialog.showMessageBox(window, { type: 'info', buttons: ['OK'], defaultId: 0, cancelId: 0, message: `${electron.app.getName()} ${electron.app.getVersion()}`, detail: 'Design, run and debug AI-agent and automation workflows on a durable local engine.' });
    },
  };
}

/** Shows the open workflow (else the workspace folder) in the file manager; never a path outside the workspace. */
function reveal(electron: ElectronSeam, deps: MenuHandlerDeps): void {
  const workspace = deps.workspace();
  if (workspace === undefined) return;
  const file = deps.documentFile();
  const path = file === undefined ? workspace : join(workspace, file);
  const rel = relative(workspace, path);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    deps.log(`not revealed: ${file ?? ''} is outside the workspace`);
    return electron.shell.showItemInFolder(workspace);
  }
  electron.shell.showItemInFolder(path);
}
