// What the renderer's browser tests share: a component harness bundled by esbuild from the real
// sources, served as `weft serve` would (a page, its script and its styles with the app's theme),
// Debian's chromium to run it in, pages whose waits outlast a loaded machine, and screenshots that
// assert what they show. Each file routes a made-up origin to these files. A file's tests share
// one page where they can: loading a harness (a new page, then parsing megabytes of development
// React and CodeMirror) costs a few seconds on a loaded machine, and remounting it costs nothing.
import { mkdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { expect } from 'vitest';
import { layoutProblems } from '../layout-check.ts';
import { WAIT_BOUND_MS } from '../wait-until.ts';

export type HarnessFiles = Map<string, { type: string; body: string }>;

export interface HarnessOptions {
  /** The theme files of renderer/theme/ to include, in order. */
  themes?: readonly string[];
  /** React's build: development checks, or production speed (for large values). */
  nodeEnv?: 'development' | 'production';
  /** A style attribute for the page's body. */
  bodyStyle?: string;
  /** A path the files are served under (`/__t`): the page is then `BASE/index.html`, beside a real server's own routes. */
  base?: string;
  /** `esm` keeps `import.meta.url`, so `new URL('./x-worker.ts', import.meta.url)` workers resolve beside app.js. */
  format?: 'iife' | 'esm';
}

/** Bundles `source` (TSX that mounts the harness into #root) into a page, a script and a stylesheet. */
export async function bundleHarness(source: string, sourcefile: string, { themes = ['tokens.css', 'app.css', 'controls.css'], nodeEnv = 'development', bodyStyle, base = '', format = 'iife' }: HarnessOptions = {}): Promise<HarnessFiles> {
  const out = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'tsx', sourcefile },
    bundle: true,
    write: false,
    format,
    outdir: 'harness-out',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) },
    logLevel: 'silent',
  });
  const js = out.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const css = out.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '';
  const theme = themes.map((f) => readFileSync(`renderer/theme/${f}`, 'utf8')).join('\n');
  const body = bodyStyle === undefined ? '<body>' : `<body style="${bodyStyle}">`;
  return new Map([
    [base === '' ? '/' : `${base}/index.html`, { type: 'text/html', body: `<!doctype html><html data-theme="light"><head><link rel="stylesheet" href="${base}/app.css"></head>${body}<div id="root"></div><script${format === 'esm' ? ' type="module"' : ''} src="${base}/app.js"></script></body></html>` }],
    [`${base}/app.css`, { type: 'text/css', body: `${theme}\n${css}` }],
    [`${base}/app.js`, { type: 'text/javascript', body: js }],
  ]);
}

/** Debian's chromium (or WEFT_CHROMIUM), headless, with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['WEFT_CHROMIUM'] ?? '/usr/bin/chromium',
    // A harness page comes from route.fulfill, which Chromium does not count as this loopback
    // server's own: without the flag its Local Network Access checks block the page's WebSocket
    // to the server (net::ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS), and the live stream never
    // connects. A page the server itself serves (weft serve, the e2e tests) is not blocked.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-features=LocalNetworkAccessChecks'],
  });
}

/**
 * A new page whose waits (locator.waitFor, clicks, waitForFunction) give up only after
 * WAIT_BOUND_MS, like every wait in the tests, rather than Playwright's 30 s.
 */
export async function newHarnessPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(WAIT_BOUND_MS);
  return page;
}

/**
 * The end of a harness's source: mounts `element` (TSX, e.g. `<StrictMode><App /></StrictMode>`)
 * into #root, and defines `window.remountHarness()`, which unmounts it, forgets `window.harness`
 * and mounts it anew, so a page can serve the next test as a fresh one would (remountHarness).
 * The harness must import createRoot.
 */
export function mountable(element: string): string {
  return `
let root = null;
window.remountHarness = () => {
  root?.unmount();
  delete window.harness;
  root = createRoot(document.getElementById('root'));
  root.render(${element});
};
window.remountHarness();
`;
}

/**
 * Puts a page that served one test back as a newly opened one starts, for the next test: the
 * pointer at the top-left corner, nothing focused or scrolled, `viewport`, the light theme, and
 * the harness unmounted and mounted anew (its source ends with mountable()). The
 * caller then waits for what the harness shows first, as after opening the page.
 */
export async function remountHarness(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.mouse.move(0, 0);
  await page.setViewportSize(viewport);
  await page.evaluate(`document.activeElement?.blur(); window.scrollTo(0, 0); document.documentElement.dataset.theme = 'light'; window.remountHarness()`);
}

/** Records what the page logs as an error and what it throws, into the array returned. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * Screenshots the page in both themes (test-results/NAME-THEME.png, for a person to look at),
 * each after asserting what it must show: every one of `shown` visible, inside the viewport, not
 * clipped, and none overlapping another (test/layout-check.ts). Back to light afterwards.
 */
export async function shootBothThemes(page: Page, name: string, shown: Record<string, Locator>): Promise<void> {
  mkdirSync('test-results', { recursive: true });
  for (const theme of ['light', 'dark']) {
    await page.evaluate(`document.documentElement.dataset.theme = '${theme}'`);
    await expect.poll(() => layoutProblems(page, shown), { message: `what test-results/${name}-${theme}.png must show` }).toEqual([]);
    await page.screenshot({ path: `test-results/${name}-${theme}.png`, animations: 'disabled' });
  }
  await page.evaluate(`document.documentElement.dataset.theme = 'light'`);
}
