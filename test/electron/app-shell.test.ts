// The main process wired end to end against the fake Electron and a recording supervisor; trust
// goes through the real `weft trust` CLI into a temporary config folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESKTOP_CHANNELS, type DesktopSession } from '../../shared/desktop/preload-contract.ts';
import { runShell, type Shell } from '../../electron/main/app-shell.ts';
import type { EngineSupervisor } from '../../electron/main/engine-supervisor.ts';
import { ProviderKeys } from '../../electron/main/provider-keys.ts';
import { loadSettings, saveSettings } from '../../electron/main/settings.ts';
import { isTrusted, trustWorkspace } from '../../electron/main/workspace-trust.ts';
import { REPO_ROOT } from '../cli/run-weft.ts';
import { FakeElectron, FakeEvent, type FakeWindow } from './fake-electron.ts';

const TOKEN = 't'.repeat(43);
type StartOptions = Parameters<Parameters<typeof runShell>[0]['startEngine']>[0];

interface Harness {
  electron: FakeElectron;
  shell: Shell;
  window: FakeWindow;
  starts: StartOptions[];
  stops: string[];
  workspace: string;
  root: string;
}

async function start({ trusted = true, promptAnswer = 1, argv = ['weft-studio'] }: { trusted?: boolean; promptAnswer?: number; argv?: string[] } = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'weft-shell-'));
  const userData = join(root, 'user-data');
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') };
  const weft = { command: process.execPath, args: [join(REPO_ROOT, 'bin', 'weft.js')], env };
  if (trusted) await trustWorkspace(weft, workspace);
  saveSettings(userData, { recentWorkspaces: [], theme: 'system', lastWorkspace: workspace });
  const electron = new FakeElectron({ userData });
  electron.messageBoxResponse = promptAnswer;
  new ProviderKeys(electron.safeStorage, userData).set('OPENAI_API_KEY', 'sk-shell-test-key');
  const starts: StartOptions[] = [];
  const stops: string[] = [];
  let port = 40100;
  const shell = await runShell({
    electron,
    startEngine: async (options): Promise<EngineSupervisor> => {
      starts.push(options);
      const session: DesktopSession = { url: `http://127.0.0.1:${port++}`, token: TOKEN, workspace: options.workspace };
      return { session: () => session, stop: async () => void stops.push(options.workspace), starts: () => 1, pid: () => undefined };
    },
    argv,
    cwd: root,
    execPath: process.execPath,
    appRoot: REPO_ROOT,
    preloadPath: '/app/preload.cjs',
    env,
    log: () => undefined,
  });
  const window = electron.windows[0];
  if (shell === undefined || window === undefined) throw new Error('the shell did not start');
  return { electron, shell, window, starts, stops, workspace, root };
}

describe('the main process, wired', () => {
  it('starts the engine as `weft serve` on Electron in Node mode, with the provider keys, and loads its origin without the token', async () => {
    const { starts, window, workspace, electron } = await start();
    expect(starts).toHaveLength(1);
    expect(starts[0]?.command).toBe(process.execPath);
    expect(starts[0]?.args).toEqual([join(REPO_ROOT, 'bin', 'weft.js'), 'serve', '--workspace', workspace]);
    expect(starts[0]?.env['ELECTRON_RUN_AS_NODE']).toBe('1');
    expect(starts[0]?.env['OPENAI_API_KEY']).toBe('sk-shell-test-key');
    expect(window.loaded).toEqual(['http://127.0.0.1:40100/']);
    expect(window.loaded.join()).not.toContain(TOKEN);
    expect(window.options.webPreferences.preload).toBe('/app/preload.cjs');
    expect(electron.menu?.length).toBeGreaterThan(0);
    expect(window.title).toBe('ws \u2014 Weft Studio');
  });

  it('opens the folder the launch names with --workspace (npm start passes the examples) over the last workspace', async () => {
    const examples = join(REPO_ROOT, 'examples');
    const first = await start({ argv: ['electron', '/app', '--workspace', examples] });
    expect(first.starts[0]?.args.at(-1)).toBe(examples);
    expect(first.shell.workspace()).toBe(examples);
    // A relative --workspace resolves against the launch's folder; one that is not a folder is ignored.
    const { starts, workspace, root } = await start({ argv: ['electron', '/app', '--workspace=nowhere'] });
    expect(starts[0]?.args.at(-1)).toBe(workspace);
    expect(workspace.startsWith(root)).toBe(true);
  });

  it('a theme chosen inside the app is remembered and marked in the View menu', async () => {
    const { electron, window, root } = await start();
    const checked = () => (electron.menu ?? []).flatMap((m) => m.submenu ?? []).find((i) => i.id === 'view.theme')?.submenu?.find((i) => i.checked === true)?.label;
    expect(checked()).toBe('System');
    electron.listeners.get(DESKTOP_CHANNELS.documentState)?.(electron.eventFrom(window), { title: 'Workflows', dirty: false, theme: 'dark' });
    expect(checked()).toBe('Dark');
    expect(loadSettings(join(root, 'user-data')).theme).toBe('dark');
    // A state without a theme (an older app) leaves the choice as it is.
    electron.listeners.get(DESKTOP_CHANNELS.documentState)?.(electron.eventFrom(window), { title: 'Runs', dirty: false });
    expect(checked()).toBe('Dark');
  });

  it('a new endpoint is sent to the page, which is loaded from the new origin only when the origin changed', async () => {
    const { starts, window } = await start();
    const onEndpoint = starts[0]?.onEndpoint;
    onEndpoint?.({ url: 'http://127.0.0.1:40100', token: 'u'.repeat(43), workspace: '/ws' });
    expect(window.loaded).toEqual(['http://127.0.0.1:40100/']);
    onEndpoint?.({ url: 'http://127.0.0.1:40999', token: 'u'.repeat(43), workspace: '/ws' });
    expect(window.loaded).toEqual(['http://127.0.0.1:40100/', 'http://127.0.0.1:40999/']);
    expect(window.webContents.sent.at(-1)).toEqual({ channel: DESKTOP_CHANNELS.sessionChanged, payload: { url: 'http://127.0.0.1:40999', token: 'u'.repeat(43), workspace: '/ws' } });
    expect(window.webContents.sent.filter((m) => m.channel === DESKTOP_CHANNELS.sessionChanged)).toHaveLength(2);
    expect(window.webContents.navigate('will-navigate', 'http://127.0.0.1:40999/')).toBe(true);
    expect(window.webContents.navigate('will-navigate', 'http://127.0.0.1:40100/')).toBe(false);
  });

  it('quitting stops the engine (awaited) before the app exits', async () => {
    const { electron, stops, workspace } = await start();
    const event = new FakeEvent();
    electron.appEvents.emit('will-quit', event);
    expect(event.prevented).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(stops).toEqual([workspace]);
    expect(electron.quitCalls).toBe(1);
    const again = new FakeEvent();
    electron.appEvents.emit('will-quit', again);
    expect(again.prevented).toBe(false);
  });

  it('an untrusted workspace asks; Trust records it with weft trust', async () => {
    const { electron, workspace, root } = await start({ trusted: false, promptAnswer: 0 });
    expect(electron.messageBoxes.map((m) => m.buttons)).toEqual([['Trust', 'Open without trusting']]);
    expect(await isTrusted({ command: process.execPath, args: [join(REPO_ROOT, 'bin', 'weft.js')], env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } }, workspace)).toBe(true);
  });

  it('Open without trusting leaves the workspace untrusted', async () => {
    const { workspace, root } = await start({ trusted: false, promptAnswer: 1 });
    expect(await isTrusted({ command: process.execPath, args: [join(REPO_ROOT, 'bin', 'weft.js')], env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } }, workspace)).toBe(false);
  });

  it('a second launch naming a file outside the workspace switches to its folder and opens it', async () => {
    const { electron, window, starts, stops, workspace, root } = await start();
    const other = join(root, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'flow.weft.json'), '{}');
    writeFileSync(join(workspace, 'here.weft.json'), '{}');
    const trust = { command: process.execPath, args: [join(REPO_ROOT, 'bin', 'weft.js')], env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } };
    await trustWorkspace(trust, other);
    electron.appEvents.emit('second-instance', {}, ['weft-studio', 'here.weft.json'], workspace);
    electron.appEvents.emit('second-instance', {}, ['weft-studio', '../other/flow.weft.json'], workspace);
    await expect.poll(() => window.webContents.sent.filter((m) => m.channel === DESKTOP_CHANNELS.openWorkflow).map((m) => m.payload)).toEqual([{ file: 'here.weft.json' }, { file: 'flow.weft.json' }]);
    expect(stops).toEqual([workspace]);
    expect(starts.map((s) => s.workspace)).toEqual([workspace, other]);
    expect(window.loaded).toEqual(['http://127.0.0.1:40100/', 'http://127.0.0.1:40101/']);
    expect(window.focused).toBe(2);
  });
});
