// The whole app in chromium as the desktop shell runs it: a fake window.weftDesktop (what the
// preload exposes) is put on the page before the app starts, and the app talks to a real server
// over a real store. The token comes from session() (the address carries none); the window's
// document state follows the editor's dirty state; native menu actions save, undo, redo, switch
// panels and themes, import and export through the native dialogs; an open-workflow request
// opens the file in the editor.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleHarness, launchChromium, newHarnessPage, type HarnessFiles } from '../browser-harness.ts';
import { serve, type Serving } from '../../../engine/server/serve.ts';

const TOKEN = 'desktop-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';

const flow = (id: string, name: string) => ({
  format: 'weft/v1',
  id,
  version: 1,
  name,
  steps: [
    { id: 'shape', kind: 'transform', config: { expression: 'input' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'shape', to: 'done' }],
});

// What the preload would expose, recording every call; the test plays main's part through __desktop.
const FAKE_DESKTOP = String.raw`
  const record = { states: [], saves: [], opens: [], openAnswer: null, menu: null, openWorkflow: null, sessionChanged: null };
  window.__desktop = record;
  window.weftDesktop = Object.freeze({
    platform: 'linux',
    session: () => Promise.resolve({ url: location.origin, token: '${TOKEN}', workspace: '/ws' }),
    setDocumentState: (state) => { record.states.push(state); },
    openFile: (request) => { record.opens.push(request); return Promise.resolve(record.openAnswer); },
    saveFile: (request) => { record.saves.push(request); return Promise.resolve({ saved: true, path: '/home/ada/' + request.suggestedName }); },
    openExternal: () => Promise.resolve(false),
    onMenuAction: (listener) => { record.menu = listener; return () => { record.menu = null; }; },
    onSessionChanged: (listener) => { record.sessionChanged = listener; return () => { record.sessionChanged = null; }; },
    onOpenWorkflow: (listener) => { record.openWorkflow = listener; return () => { record.openWorkflow = null; }; },
  });
`;

let root = '';
let workspace = '';
let serving: Serving;
let browser: Browser;
let page: Page;
let harnessFiles: HarnessFiles;

interface Recorded {
  states: { title: string; dirty: boolean; file?: string; theme?: string }[];
  saves: { suggestedName: string; content: string }[];
  opens: unknown[];
}
const recorded = (): Promise<Recorded> => page.evaluate('({ states: window.__desktop.states, saves: window.__desktop.saves, opens: window.__desktop.opens })');
/** The last document state, without the theme (which the theme test reads on its own). */
const lastState = async () => {
  const state = (await recorded()).states.at(-1);
  if (state === undefined) return undefined;
  const { theme: _theme, ...rest } = state;
  return rest;
};
const lastTheme = async () => (await recorded()).states.at(-1)?.theme;
const menu = (action: string) => page.evaluate(`window.__desktop.menu(${JSON.stringify(action)})`);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-desktop-app-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'orders.weft.json'), JSON.stringify(flow('orders', 'Orders')));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'ana' } });

  const files = (harnessFiles = await bundleHarness("import './renderer/main.tsx';\n", 'desktop-app-harness.tsx', { base: '/__t', format: 'esm' }));
  // The editor's workers, where the app's `new URL('./x-worker.ts', import.meta.url)` looks for them.
  for (const [name, entry] of [['validation-worker.ts', 'renderer/editor/validation/validation-worker.ts'], ['layout-worker.ts', 'renderer/graph/layout-worker.ts']] as const) {
    const out = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', logLevel: 'silent' });
    files.set(`/__t/${name}`, { type: 'text/javascript', body: out.outputFiles[0]?.text ?? '' });
  }
  browser = await launchChromium();
  page = await newHarnessPage(browser, { viewport: { width: 1400, height: 900 } });
  await page.addInitScript(FAKE_DESKTOP);
  await page.route(`${serving.url}/__t/**`, (route) => {
    const file = files.get(new URL(route.request().url()).pathname);
    return file === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ status: 200, contentType: file.type, body: file.body });
  });
});

afterAll(async () => {
  await browser?.close();
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

it('runs on the shell’s session and reports, saves, undoes and redoes through the native menus', async () => {
  await page.goto(`${serving.url}/__t/index.html#/workflow/orders`);
  await page.getByTestId('editor').waitFor();
  expect(await page.evaluate('sessionStorage.getItem("weft.token")')).toBe(TOKEN);
  await expect.poll(lastState).toEqual({ title: 'orders.weft.json', dirty: false, file: 'orders.weft.json' });

  // An edit on the canvas: the window is told the document has unsaved changes.
  await page.locator('.react-flow__node[data-id="shape"]').click();
  await page.keyboard.press('Delete');
  await expect.poll(() => page.getByTestId('editor').getAttribute('data-dirty')).toBe('true');
  await expect.poll(lastState).toEqual({ title: 'orders.weft.json', dirty: true, file: 'orders.weft.json' });

  // Edit > Undo and Redo from the native menu act on the editor's history (no text field has focus).
  await menu('edit.undo');
  await expect.poll(lastState).toMatchObject({ dirty: false });
  expect(await page.locator('.react-flow__node[data-id="shape"]').count()).toBe(1);
  await menu('edit.redo');
  await expect.poll(lastState).toMatchObject({ dirty: true });
  expect(await page.locator('.react-flow__node[data-id="shape"]').count()).toBe(0);

  // File > Save writes the file through the engine.
  await menu('file.save');
  await expect.poll(lastState).toEqual({ title: 'orders.weft.json', dirty: false, file: 'orders.weft.json' });
  const saved: unknown = JSON.parse(readFileSync(join(workspace, 'orders.weft.json'), 'utf8'));
  expect(JSON.stringify(saved)).not.toContain('"shape"');
});

it('switches panels and themes, and says why a run action does nothing in the editor', async () => {
  await menu('view.panel.history');
  await expect.poll(() => page.getByTestId('tab-history').getAttribute('aria-selected')).toBe('true');
  await menu('view.panel.inspector');
  await expect.poll(() => page.getByTestId('tab-inspect').getAttribute('aria-selected')).toBe('true');
  await menu('view.theme.dark');
  await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
  // The choice goes back to the shell, which marks it in its View menu.
  await expect.poll(lastTheme).toBe('dark');
  await menu('view.theme.light');
  await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light');
  await expect.poll(lastTheme).toBe('light');
  await menu('run.pause');
  await expect.poll(() => page.getByTestId('desktop-note').textContent()).toBe('Open a run to pause it.');
  await menu('help.shortcuts');
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
});

it('undoes a text field’s own typing when it has focus, not the editor’s document', async () => {
  await page.locator('.react-flow__node[data-id="done"]').click();
  const field = page.locator('.editor-panel input[type="text"], .editor-panel input:not([type])').first();
  await field.waitFor();
  const before = await field.inputValue();
  await field.click();
  await field.press('End');
  await field.pressSequentially('xyz');
  expect(await field.inputValue()).toBe(`${before}xyz`);
  await menu('edit.undo');
  await expect.poll(() => field.inputValue()).not.toBe(`${before}xyz`);
  // The canvas still has its one step (the save removed the other): the editor's history was not undone.
  expect(await page.locator('.react-flow__node').count()).toBe(1);
});

it('exports and imports through the native save and open dialogs, and opens a file the shell names', async () => {
  await menu('file.export');
  await expect.poll(async () => (await recorded()).saves.length).toBe(1);
  const [save] = (await recorded()).saves;
  expect(save?.suggestedName).toBe('orders.weft.json');
  expect(save?.content).toBe(readFileSync(join(workspace, 'orders.weft.json'), 'utf8'));

  await page.evaluate(`window.__desktop.openAnswer = ${JSON.stringify({ name: 'refunds.weft.json', content: JSON.stringify(flow('refunds', 'Refunds')) })}`);
  await menu('file.import');
  await expect.poll(() => page.evaluate('location.hash')).toBe('#/workflow/refunds');
  expect((await recorded()).opens).toEqual([{ purpose: 'import-workflow' }]);
  expect(existsSync(join(workspace, 'refunds.weft.json'))).toBe(true);
  await expect.poll(lastState).toEqual({ title: 'refunds.weft.json', dirty: false, file: 'refunds.weft.json' });

  await page.evaluate(`window.__desktop.openWorkflow({ file: 'orders.weft.json' })`);
  await expect.poll(() => page.evaluate('location.hash')).toBe('#/workflow/orders');
  await expect.poll(lastState).toEqual({ title: 'orders.weft.json', dirty: false, file: 'orders.weft.json' });
  await page.evaluate(`window.__desktop.openWorkflow({ file: 'missing.weft.json' })`);
  await expect.poll(() => page.getByTestId('desktop-note').textContent()).toMatch(/missing\.weft\.json is not among this workspace/);

  await page.evaluate(`location.hash = '#/workflows'`);
  await expect.poll(lastState).toEqual({ title: 'Workflows', dirty: false });
});

it('follows a changed session on its own origin, and leaves one on another origin to the shell', async () => {
  const changed = (session: { url: string; token: string }) => page.evaluate(`window.__desktop.sessionChanged(${JSON.stringify({ ...session, workspace: '/ws' })})`);
  const other = `restarted-${'x'.repeat(43)}`;
  // Another origin: the shell reloads the window there; the app keeps its session meanwhile.
  await changed({ url: 'http://127.0.0.1:1', token: other });
  expect(await page.evaluate('sessionStorage.getItem("weft.token")')).toBe(TOKEN);
  // Same origin, new token: the app reconnects with it (this engine refuses it, and the app says so).
  await changed({ url: serving.url, token: other });
  expect(await page.evaluate('sessionStorage.getItem("weft.token")')).toBe(other);
  await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/refused the desktop app’s token/);
  await changed({ url: serving.url, token: TOKEN });
  await expect.poll(() => page.getByRole('alert').count()).toBe(0);
  await page.getByTestId('workflow-list').waitFor();
});

it('says so in one line when the shell cannot give a session', async () => {
  const failing = await newHarnessPage(browser);
  try {
    await failing.addInitScript(`${FAKE_DESKTOP}\nwindow.weftDesktop = Object.freeze({ ...window.weftDesktop, session: () => Promise.reject(new Error('the engine did not start')) });`);
    await failing.route(`${serving.url}/__t/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      const file = harnessFiles.get(path);
      return file === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ status: 200, contentType: file.type, body: file.body });
    });
    await failing.goto(`${serving.url}/__t/index.html#/workflows`);
    await expect.poll(() => failing.getByRole('alert').first().textContent()).toMatch(/could not get its engine’s address and token \(the engine did not start\)\. Quit Weft Studio and start it again\./);
  } finally {
    await failing.close();
  }
});
