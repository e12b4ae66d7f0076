import { mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESKTOP_CHANNELS, type DesktopSession } from '../../shared/desktop/preload-contract.ts';
import { DocumentTracker } from '../../electron/main/document-state.ts';
import { registerIpcHandlers } from '../../electron/main/ipc-handlers.ts';
import { FakeElectron, windowOptions, type FakeWindow } from './fake-electron.ts';

const SESSION: DesktopSession = { url: 'http://127.0.0.1:43117', token: 'a'.repeat(43), workspace: '/ws/payments' };

function setup(platform: NodeJS.Platform = 'linux'): { electron: FakeElectron; window: FakeWindow; log: string[]; document: DocumentTracker } {
  const electron = new FakeElectron({ platform });
  const window = electron.createWindow(windowOptions());
  window.webContents.url = `${SESSION.url}/`;
  const log: string[] = [];
  const document = new DocumentTracker(platform, () => SESSION.workspace);
  registerIpcHandlers(electron, { window: () => window, session: () => SESSION, document, log: (l) => log.push(l) });
  return { electron, window, log, document };
}

describe('sender check', () => {
  it('refuses every invoke channel from another webContents, from another origin, or from a sub-frame elsewhere', async () => {
    const { electron, window } = setup();
    const other = electron.createWindow(windowOptions());
    other.webContents.url = `${SESSION.url}/`;
    for (const channel of [DESKTOP_CHANNELS.session, DESKTOP_CHANNELS.openFile, DESKTOP_CHANNELS.saveFile, DESKTOP_CHANNELS.openExternal]) {
      await expect(electron.invoke(channel, electron.eventFrom(other), undefined), channel).rejects.toThrow(/did not come from the main window/);
      await expect(electron.invoke(channel, electron.eventFrom(window, 'https://evil.example/'), undefined), channel).rejects.toThrow(/came from https:\/\/evil\.example, not from the app at http:\/\/127\.0\.0\.1:43117/);
      await expect(electron.invoke(channel, electron.eventFrom(window, 'http://127.0.0.1:9999/x'), undefined), channel).rejects.toThrow(/not from the app/);
    }
    expect(electron.openDialogs).toEqual([]);
  });

  it('refuses a message from a sub-frame or a frame that is gone (the adapter gives it no URL)', async () => {
    const { electron, window } = setup();
    const event = { sender: { id: window.webContents.id, getURL: () => `${SESSION.url}/` }, senderFrameUrl: undefined };
    await expect(electron.invoke(DESKTOP_CHANNELS.session, event, undefined)).rejects.toThrow(/came from a frame without an origin/);
  });

  it('refuses everything while no engine is up', async () => {
    const electron = new FakeElectron();
    const window = electron.createWindow(windowOptions());
    registerIpcHandlers(electron, { window: () => window, session: () => undefined, document: new DocumentTracker('linux', () => undefined), log: () => undefined });
    await expect(electron.invoke(DESKTOP_CHANNELS.session, electron.eventFrom(window, `${SESSION.url}/`), undefined)).rejects.toThrow(/engine is not running yet/);
  });
});

describe('session', () => {
  it('answers the current session', async () => {
    const { electron, window } = setup();
    expect(await electron.invoke(DESKTOP_CHANNELS.session, electron.eventFrom(window), undefined)).toEqual(SESSION);
  });
  it('refuses an argument', async () => {
    const { electron, window } = setup();
    await expect(electron.invoke(DESKTOP_CHANNELS.session, electron.eventFrom(window), { x: 1 })).rejects.toThrow(/takes no argument/);
  });
});

describe('documentState', () => {
  it('sets the title with the workspace and a bullet for unsaved changes', () => {
    const { electron, window } = setup();
    electron.listeners.get(DESKTOP_CHANNELS.documentState)?.(electron.eventFrom(window), { title: 'order.weft.json', dirty: true });
    expect(window.title).toBe('\u25cf order.weft.json \u2014 payments \u2014 Weft Studio');
    electron.listeners.get(DESKTOP_CHANNELS.documentState)?.(electron.eventFrom(window), { title: 'order.weft.json', dirty: false });
    expect(window.title).toBe('order.weft.json \u2014 payments \u2014 Weft Studio');
    expect(window.documentEdited).toBe(false);
  });
  it('on macOS, sets the document-edited dot instead of a bullet', () => {
    const { electron, window } = setup('darwin');
    electron.listeners.get(DESKTOP_CHANNELS.documentState)?.(electron.eventFrom(window), { title: 'order.weft.json', dirty: true });
    expect(window.title).toBe('order.weft.json \u2014 payments \u2014 Weft Studio');
    expect(window.documentEdited).toBe(true);
  });
  it('ignores (and logs) bad input and foreign senders, keeping the last good state', () => {
    const { electron, window, log, document } = setup();
    const send = electron.listeners.get(DESKTOP_CHANNELS.documentState);
    send?.(electron.eventFrom(window), { title: 'a.weft.json', dirty: false });
    send?.(electron.eventFrom(window), { title: 'x'.repeat(301), dirty: true });
    send?.(electron.eventFrom(window), { title: 'b', dirty: 'yes' });
    send?.(electron.eventFrom(window), { title: 'b', dirty: true, extra: 1 });
    send?.(electron.eventFrom(window, 'https://evil.example/'), { title: 'b', dirty: true });
    expect(document.current).toEqual({ title: 'a.weft.json', dirty: false });
    expect(window.title).toBe('a.weft.json \u2014 payments \u2014 Weft Studio');
    expect(log).toHaveLength(4);
  });
});

describe('openFile', () => {
  it('answers the chosen file and its text', async () => {
    const { electron, window } = setup();
    const dir = mkdtempSync(join(tmpdir(), 'weft-ipc-'));
    writeFileSync(join(dir, 'flow.weft.json'), '{"id":"flow"}');
    electron.openDialogAnswer = { canceled: false, filePaths: [join(dir, 'flow.weft.json')] };
    expect(await electron.invoke(DESKTOP_CHANNELS.openFile, electron.eventFrom(window), { purpose: 'import-workflow' })).toEqual({ name: 'flow.weft.json', content: '{"id":"flow"}' });
    expect(electron.openDialogs).toHaveLength(1);
  });
  it('answers null on cancel', async () => {
    const { electron, window } = setup();
    expect(await electron.invoke(DESKTOP_CHANNELS.openFile, electron.eventFrom(window), { purpose: 'import-workflow' })).toBeNull();
  });
  it('refuses a file over 16 MiB, and a folder, with a clear error', async () => {
    const { electron, window } = setup();
    const dir = mkdtempSync(join(tmpdir(), 'weft-ipc-'));
    const big = join(dir, 'big.weft.json');
    writeFileSync(big, '');
    truncateSync(big, 16 * 1024 * 1024 + 1);
    electron.openDialogAnswer = { canceled: false, filePaths: [big] };
    await expect(electron.invoke(DESKTOP_CHANNELS.openFile, electron.eventFrom(window), { purpose: 'import-workflow' })).rejects.toThrow(/big\.weft\.json is 16\.0 MiB; a workflow file may be at most 16 MiB/);
    electron.openDialogAnswer = { canceled: false, filePaths: [dir] };
    await expect(electron.invoke(DESKTOP_CHANNELS.openFile, electron.eventFrom(window), { purpose: 'import-workflow' })).rejects.toThrow(/is not a file/);
  });
  it('refuses a bad request before showing any dialog', async () => {
    const { electron, window } = setup();
    for (const bad of [undefined, {}, { purpose: 'read-etc-passwd' }, { purpose: 'import-workflow', path: '/etc/passwd' }]) {
      await expect(electron.invoke(DESKTOP_CHANNELS.openFile, electron.eventFrom(window), bad)).rejects.toThrow(/weft:open-file: .*preload contract/);
    }
    expect(electron.openDialogs).toEqual([]);
  });
});

describe('saveFile', () => {
  it('writes the content where the user chose, atomically', async () => {
    const { electron, window } = setup();
    const dir = mkdtempSync(join(tmpdir(), 'weft-ipc-'));
    electron.saveDialogAnswer = { canceled: false, filePath: join(dir, 'out.weft.json') };
    expect(await electron.invoke(DESKTOP_CHANNELS.saveFile, electron.eventFrom(window), { suggestedName: 'flow.weft.json', content: '{"a":1}' })).toEqual({ saved: true, path: join(dir, 'out.weft.json') });
    expect(readFileSync(join(dir, 'out.weft.json'), 'utf8')).toBe('{"a":1}');
    expect(readdirSync(dir)).toEqual(['out.weft.json']);
    expect(electron.saveDialogs[0]).toMatchObject({ defaultPath: '/ws/payments/flow.weft.json' });
  });
  it('answers saved: false on cancel and writes nothing', async () => {
    const { electron, window } = setup();
    expect(await electron.invoke(DESKTOP_CHANNELS.saveFile, electron.eventFrom(window), { suggestedName: 'flow.weft.json', content: '{}' })).toEqual({ saved: false });
  });
  it('refuses a path as the suggested name, and extra fields', async () => {
    const { electron, window } = setup();
    await expect(electron.invoke(DESKTOP_CHANNELS.saveFile, electron.eventFrom(window), { suggestedName: '../../.bashrc', content: '' })).rejects.toThrow(/suggestedName: a file name, not a path/);
    await expect(electron.invoke(DESKTOP_CHANNELS.saveFile, electron.eventFrom(window), { suggestedName: 'a.weft.json', content: '', path: '/etc/x' })).rejects.toThrow(/weft:save-file/);
    expect(electron.saveDialogs).toEqual([]);
  });
  it('reports a folder it cannot write to', async () => {
    const { electron, window } = setup();
    const dir = mkdtempSync(join(tmpdir(), 'weft-ipc-'));
    writeFileSync(join(dir, 'plain-file'), '');
    electron.saveDialogAnswer = { canceled: false, filePath: join(dir, 'plain-file', 'out.weft.json') };
    await expect(electron.invoke(DESKTOP_CHANNELS.saveFile, electron.eventFrom(window), { suggestedName: 'a.weft.json', content: '' })).rejects.toThrow(/could not write .*plain-file\/out\.weft\.json: ENOTDIR; choose a folder/);
  });
});

describe('openExternal', () => {
  it('opens a checked link in the system browser', async () => {
    const { electron, window } = setup();
    expect(await electron.invoke(DESKTOP_CHANNELS.openExternal, electron.eventFrom(window), { url: 'https://weft.dev/docs' })).toBe(true);
    expect(electron.opened).toEqual(['https://weft.dev/docs']);
  });
  it('answers false for a link that fails the check, and opens nothing', async () => {
    const { electron, window, log } = setup();
    for (const url of ['file:///etc/passwd', `${SESSION.url}/#token=x`, 'https://u:p@example.com/']) {
      expect(await electron.invoke(DESKTOP_CHANNELS.openExternal, electron.eventFrom(window), { url })).toBe(false);
    }
    expect(electron.opened).toEqual([]);
    expect(log).toHaveLength(3);
  });
  it('refuses bad input', async () => {
    const { electron, window } = setup();
    await expect(electron.invoke(DESKTOP_CHANNELS.openExternal, electron.eventFrom(window), 'https://example.com')).rejects.toThrow(/weft:open-external/);
    await expect(electron.invoke(DESKTOP_CHANNELS.openExternal, electron.eventFrom(window), { url: 'x'.repeat(5000) })).rejects.toThrow(/url:/);
  });
});
