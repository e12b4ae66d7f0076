// The desktop app's main process, wired: single instance -> settings -> trust -> the engine
// (through the supervisor) -> the hardened window on the engine's origin -> menus, IPC, the quit
// prompt -> files from argv and the OS. Everything Electron comes through the seam and the
// supervisor is passed in, so the whole wiring runs in tests against fakes (main.ts passes the
// real ones).
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DESKTOP_CHANNELS, type DesktopSession } from '../../shared/desktop/preload-contract.ts';
import { DocumentTracker } from './document-state.ts';
import type { ElectronSeam, WindowSeam } from './electron-seam.ts';
import { engineEnv, engineServeArgs, weftCommand } from './engine-command.ts';
import type { EngineSupervisor, startEngineSupervisor } from './engine-supervisor.ts';
import { registerIpcHandlers } from './ipc-handlers.ts';
import { buildMenuTemplate } from './menu.ts';
import { workspaceInArgv } from './launch-args.ts';
import { menuHandlers } from './menu-handlers.ts';
import { openWorkflowFile } from './open-workflow.ts';
import { ProviderKeys } from './provider-keys.ts';
import { guardUnsavedClose } from './quit-guard.ts';
import { loadSettings, saveSettings, withOpenedWorkspace, type Settings } from './settings.ts';
import { claimSingleInstance } from './single-instance.ts';
import { createMainWindow } from './window.ts';
import { loadWindowState, onScreen, trackWindowState } from './window-state.ts';
import { afterPrompt, beforeOpening, isTrusted, trustPrompt, trustWorkspace } from './workspace-trust.ts';

export interface ShellOptions {
  electron: ElectronSeam;
  startEngine: typeof startEngineSupervisor;
  argv: string[];
  cwd: string;
  /** Electron's executable, run in Node mode for the engine and the CLI. */
  execPath: string;
  /** The folder holding bin/weft.js (the app's root, inside the asar when packaged). */
  appRoot: string;
  preloadPath: string;
  env: Record<string, string | undefined>;
  log(line: string): void;
}

export interface Shell {
  window(): WindowSeam | undefined;
  session(): DesktopSession | undefined;
  workspace(): string;
  switchWorkspace(folder: string): Promise<boolean>;
  openFile(file: string): Promise<void>;
}

/** Runs the app; undefined when another instance already runs (it got our files and this one quits). */
export async function runShell(o: ShellOptions): Promise<Shell | undefined> {
  const { electron, log } = o;
  // Set once the engine is up; the single-instance and IPC handlers registered before read it late.
  let window: WindowSeam | undefined = undefined;
  const single = claimSingleInstance(electron, o.argv, o.cwd, () => window);
  if (single === undefined) {
    electron.app.quit();
    return undefined;
  }
  await electron.app.whenReady();
  const userData = electron.app.getPath('userData');
  let settings: Settings = loadSettings(userData);
  const keys = new ProviderKeys(electron.safeStorage, userData);
  const weft = weftCommand(o.execPath, o.appRoot, o.env);
  const answeredTrust = new Set<string>();
  const persist = (next: Settings): void => {
    settings = next;
    try {
      saveSettings(userData, next);
    } catch (e) {
      log(`settings not saved: ${e instanceof Error ? e.message : String(e)}`);
    }
    refreshMenu();
  };

  let workspace = firstWorkspace(settings, electron, workspaceInArgv(o.argv, o.cwd));
  let session: DesktopSession | undefined;
  let supervisor: EngineSupervisor | undefined;
  const document = new DocumentTracker(electron.platform, () => workspace);
  // A theme chosen inside the app is remembered and marked in the View menu too.
  document.onChange((state) => {
    if (state.theme !== undefined && state.theme !== settings.theme) persist({ ...settings, theme: state.theme });
  });

  const onEndpoint = (next: DesktopSession): void => {
    const originChanged = session?.url !== next.url;
    session = next;
    if (window === undefined || window.isDestroyed()) return;
    window.webContents.send(DESKTOP_CHANNELS.sessionChanged, next);
    // A plain reload would go back to the old port: the page is loaded afresh from the new origin.
    if (originChanged) void window.loadURL(`${next.url}/`).catch((e: unknown) => log(`could not load the app from ${next.url}: ${e instanceof Error ? e.message : String(e)}`));
  };

  const ensureTrust = async (folder: string): Promise<void> => {
    try {
      if (beforeOpening(await isTrusted(weft, folder), answeredTrust.has(folder)).kind !== 'ask' || window === undefined) return;
      const { response } = await electron.dialog.showMessageBox(window, trustPrompt(folder));
      answeredTrust.add(folder);
      if (afterPrompt(response).kind === 'trust') await trustWorkspace(weft, folder);
    } catch (e) {
      log(`workspace trust: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const startEngine = async (folder: string): Promise<void> => {
    supervisor = await o.startEngine({ workspace: folder, env: engineEnv(o.env, keys.providerEnv(log)), command: o.execPath, args: engineServeArgs(o.appRoot, folder), onEndpoint, onLog: log });
    session = supervisor.session();
  };

  // The token never goes in the URL: the page gets it from the preload (DESKTOP_CHANNELS.session).
  async function loadApp(): Promise<void> {
    const now = currentSession();
    if (window !== undefined && now !== undefined) await window.loadURL(`${now.url}/`);
  }
  // A getter, so TypeScript does not narrow `session` across the awaits that change it.
  function currentSession(): DesktopSession | undefined {
    return session;
  }

  const switchWorkspace = async (folder: string): Promise<boolean> => {
    const target = resolve(folder);
    if (!isFolder(target)) {
      electron.dialog.showErrorBox('Workspace not found', `${target} is not a folder (moved or deleted?); choose another with File > Open workspace folder.`);
      persist({ ...settings, recentWorkspaces: settings.recentWorkspaces.filter((w) => w !== target) });
      return false;
    }
    if (target === workspace) return true;
    if (document.dirty && window !== undefined) {
      const { response } = await electron.dialog.showMessageBox(window, { type: 'warning', buttons: ['Open folder', 'Cancel'], defaultId: 1, cancelId: 1, message: `Discard the unsaved changes to ${document.current?.title ?? 'this workflow'}?`, detail: `Opening ${target} closes the workflow open now.` });
      if (response !== 0) return false;
    }
    await ensureTrust(target);
    await supervisor?.stop();
    supervisor = undefined;
    session = undefined;
    workspace = target;
    persist(withOpenedWorkspace(settings, target));
    document.reset(window);
    await startEngine(target);
    await loadApp();
    return true;
  };

  function refreshMenu(): void {
    const handlers = menuHandlers(electron, {
      window: () => window,
      workspace: () => workspace,
      documentFile: () => document.current?.file,
      setTheme: (theme) => persist({ ...settings, theme }),
      switchWorkspace,
      clearRecent: () => persist({ ...settings, recentWorkspaces: [] }),
      log,
    });
    electron.setApplicationMenu(buildMenuTemplate(electron.platform, { appName: electron.app.getName(), isPackaged: electron.app.isPackaged, recentWorkspaces: settings.recentWorkspaces, theme: settings.theme, handlers }));
  }

  registerIpcHandlers(electron, { window: () => window, session: () => session, document, log });
  persist(withOpenedWorkspace(settings, workspace));
  const saved = loadWindowState(userData);
  window = createMainWindow(electron, {
    preload: o.preloadPath,
    engineOrigin: () => session?.url,
    bounds: saved === undefined ? undefined : onScreen(saved.bounds, electron.screen.getAllDisplays().map((d) => d.workArea)),
    maximized: saved?.maximized ?? false,
    onRefused: (what) => log(`refused: ${what}`),
  });
  trackWindowState(window, userData, log);
  guardUnsavedClose(electron, window, document);
  document.render(window);
  await ensureTrust(workspace);
  await startEngine(workspace);
  stopEngineOnQuit(electron, () => supervisor, log);
  electron.app.onWindowAllClosed(() => electron.app.quit());
  await loadApp();

  const openFile = async (file: string): Promise<void> => {
    await openWorkflowFile(file, {
      workspace: () => workspace,
      switchWorkspace,
      send: (request) => window?.webContents.send(DESKTOP_CHANNELS.openWorkflow, request),
      reportError: (message) => electron.dialog.showErrorBox('Cannot open the workflow', message),
    });
    electron.app.addRecentDocument(file);
  };
  single.deliverTo((file) => void openFile(file));
  return { window: () => window, session: () => session, workspace: () => workspace, switchWorkspace, openFile };
}

/** The engine stops (running attempts recorded as at any stop) before the app exits. */
function stopEngineOnQuit(electron: ElectronSeam, supervisor: () => EngineSupervisor | undefined, log: (line: string) => void): void {
  let stopped = false;
  electron.app.on('will-quit', (event) => {
    const running = supervisor();
    if (stopped || running === undefined) return;
    event.preventDefault();
    stopped = true;
    void running
      .stop()
      .catch((e: unknown) => log(`engine did not stop cleanly: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => electron.app.quit());
  });
}

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The folder the launch names, else the last workspace if it still exists, else a "Weft" folder in the user's documents. */
function firstWorkspace(settings: Settings, electron: ElectronSeam, named: string | undefined): string {
  if (named !== undefined && isFolder(named)) return named;
  if (settings.lastWorkspace !== undefined && isFolder(settings.lastWorkspace)) return settings.lastWorkspace;
  const fallback = join(electron.app.getPath('documents'), 'Weft');
  mkdirSync(fallback, { recursive: true });
  return fallback;
}
