// Starts the real `weft serve` in a child process on a copy of examples/ (with its own store and
// config folder, the workspace trusted) and reads the address it prints. stop() sends SIGINT, as
// Ctrl-C does, and waits for the process to exit.
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layoutProblems } from '../layout-check.ts';
import { WAIT_BOUND_MS } from '../wait-until.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(REPO_ROOT, 'bin/weft.js');

export interface Workspace {
  dir: string;
  db: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** A temporary copy of examples/, trusted, with its own store and config folder. */
export function exampleWorkspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'weft-e2e-'));
  const dir = join(root, 'workspace');
  cpSync(join(REPO_ROOT, 'examples'), dir, { recursive: true });
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: join(root, 'weft.db'), WEFT_USER: 'e2e' };
  execFileSync(process.execPath, [BIN, 'trust', dir], { cwd: dir, env, stdio: 'pipe' });
  return { dir, db: join(root, 'weft.db'), env, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Served {
  url: string;
  port: number;
  token: string;
  /** The address `weft serve` printed, token included. */
  address: string;
  process: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/**
 * `weft serve` on the workspace; a port of an earlier start makes it a restart there, with the
 * same token when it is given (WEFT_TOKEN), else with a new one; `store`: a PostgreSQL store.
 */
export function startServe(ws: Workspace, again?: { port: number; token?: string }, store?: { url: string; noWorker?: boolean }): Promise<Served> {
  const env = again?.token === undefined ? ws.env : { ...ws.env, WEFT_TOKEN: again.token };
  // A PostgreSQL store (docs/scale-out.md) in place of the workspace's SQLite file, with or without the server's own worker.
  const where = store === undefined ? ['--db', ws.db] : ['--store', store.url, ...(store.noWorker === true ? ['--no-worker'] : [])];
  const child = spawn(process.execPath, [BIN, 'serve', '--workspace', ws.dir, ...where, '--port', String(again?.port ?? 0)], { cwd: ws.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    // Only a broken start ends here: the address comes when the server listens, however slowly.
    const timer = setTimeout(() => reject(new Error(`weft serve printed no address in ${WAIT_BOUND_MS / 1000} s\n${err}`)), WAIT_BOUND_MS);
    child.on('exit', (code) => reject(new Error(`weft serve exited ${code} before it was ready\n${err}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /Weft Studio: (http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)/.exec(out);
      if (match?.[1] === undefined || match[2] === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      resolve({
        url: match[1],
        port: Number(new URL(match[1]).port),
        token: match[2],
        address: `${match[1]}/#token=${match[2]}`,
        process: child,
        stderr: () => err,
        async stop() {
          if (child.exitCode === null) child.kill('SIGINT');
          return exited;
        },
      });
    });
  });
}

/** Opens a run's page as a person does: the app at the address serve printed, Runs in the sidebar, the run's row. */
export async function openRunFromList(page: Page, served: Pick<Served, 'address'>, runId: string): Promise<void> {
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
}

/** Opens run `runId` from the runs list at 1440×1100 and selects step `stepId` on its graph. */
export async function openRunStep(page: Page, served: Pick<Served, 'address'>, runId: string, stepId: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1100 });
  await openRunFromList(page, served, runId);
  await page.getByTestId(`step-node-${stepId}`).click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', stepId);
}

export interface WeftResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `weft ARGS` in a terminal of the workspace (same store and config as the server). */
export function weft(ws: Workspace, args: readonly string[]): Promise<WeftResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ws.dir, env: ws.env, timeout: WAIT_BOUND_MS }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

export interface FakeApi {
  url: string;
  close(): Promise<void>;
}

/** examples/fake-api.mjs on a free port of 127.0.0.1: the remote APIs the examples call. */
export async function startFakeApi(): Promise<FakeApi> {
  const mod = (await import(join(REPO_ROOT, 'examples/fake-api.mjs'))) as { startFakeApi: (port?: number) => Promise<FakeApi> };
  return mod.startFakeApi(0);
}

export interface Loopback {
  url: string;
  /** Destroys open sockets (a held request included) and closes the server. */
  close(): Promise<void>;
}

/**
 * A real HTTP server on a free port of 127.0.0.1 for a test's stand-in remote API; close() ends
 * even requests the handler holds open (a write that never answers).
 */
export async function listenLoopback(handler: RequestListener): Promise<Loopback> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Opens workflow `id` in the editor from the workflows list, and waits for its steps on the canvas. */
export async function openEditor(page: Page, served: Pick<Served, 'address'>, id: string): Promise<void> {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.getByTestId(`workflow-row-${id}`).click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
}

/** Types into a CodeMirror field of the inspector (its `data-testid`), replacing what it held. */
export async function typeCode(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(`${testId}-input`).click();
  await page.keyboard.press(`${process.platform === 'darwin' ? 'Meta' : 'Control'}+a`);
  await page.keyboard.type(text);
}

export type Theme = 'light' | 'dark';

/** Sets the theme as the app stores a choice: in localStorage, and on the root element. */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(`localStorage.setItem('weft.theme', '${theme}'); document.documentElement.dataset.theme = '${theme}'`);
}

/** The app's frame around every page: the navigation, and the header's workspace, connection and theme toggle. */
export function appChrome(page: Page): Record<string, Locator> {
  return {
    'nav workflows': page.getByTestId('nav-workflows'),
    'nav runs': page.getByTestId('nav-runs'),
    'nav tasks': page.getByTestId('nav-tasks'),
    workspace: page.getByTestId('workspace'),
    connection: page.getByTestId('connection'),
    'theme toggle': page.getByTestId('theme-toggle'),
  };
}

/**
 * Asserts what a picture must show: each of `shown` visible, inside the viewport, not clipped, and
 * none overlapping another (test/layout-check.ts). Waited for, since a transition may still be
 * moving things; a layout that stays wrong fails with the list of problems.
 */
export async function expectLaidOut(page: Page, shown: Record<string, Locator>): Promise<void> {
  await expect.poll(() => layoutProblems(page, shown), { message: 'what the screenshot must show' }).toEqual([]);
}

/**
 * Screenshots the page in both themes (test-results/screenshots/NAME-THEME.png), each after
 * asserting what it must show (expectLaidOut), then goes back to light. Transitions are finished
 * for the picture, rather than waited out. `useTheme` switches the theme another way (the header's
 * toggle, as a person would).
 */
export async function shootBothThemes(page: Page, name: string, shown: Record<string, Locator>, useTheme: (page: Page, theme: Theme) => Promise<void> = setTheme): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectLaidOut(page, shown);
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, animations: 'disabled' });
  }
  await useTheme(page, 'light');
}

/** A spec file's one served copy of examples/ and its one page (made in beforeAll, reused by its tests). */
export interface ServedPage {
  ws: Workspace;
  served: Served;
  page: Page;
}

/** Serves a fresh copy of examples/ and opens one page of `browser` (at `viewport`, else Playwright's default). */
export async function openServedPage(browser: Browser, viewport?: { width: number; height: number }): Promise<ServedPage> {
  const ws = exampleWorkspace();
  const served = await startServe(ws);
  const page = await browser.newPage(viewport === undefined ? {} : { viewport });
  return { ws, served, page };
}

/** Closes what openServedPage opened; safe when beforeAll failed half-way (anything may be missing). */
export async function closeServedPage(opened: Partial<ServedPage>): Promise<void> {
  await opened.page?.close();
  await opened.served?.stop();
  opened.ws?.remove();
}
