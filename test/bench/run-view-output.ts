// The runs bench's "time to open a 5 MB output", in the built app against the real `weft serve`:
// the run page at #/run/ID, then what a person does to see the output: click the step on the
// graph (the step detail shows the output's stub, since GET /api/runs/:id leaves values over
// 64 KiB out), load it (its first level), load the big array inside (its first 500 entries),
// and search for one deep value among them. Each gesture is a real Playwright click or fill; it
// is timed with the page's clock from the click (a capture listener on window, before React's)
// to the first animation frame in which what it shows is in the DOM. Plain-text page code
// because this project's test code is type-checked without the DOM library.
import type { Browser, Page } from '@playwright/test';
import type { Served } from '../e2e/weft-serve.ts';
import { formatTable, median } from './benchmark.ts';
import type { BenchRun } from './run-view-workspace.ts';

const REPS = 5;
const STEP = 'echo';
const TIMEOUT_MS = 60_000;
const VIEWPORT = { width: 1440, height: 900 };
/** An order's email: unique among the first page of 500 orders (bigPayload numbers them from 0). */
const DEEP_ORDER = 321;

/**
 * Installed in every page before the app: the time of the last click or input (by the test id it
 * landed in), and watches that note the first frame in which a selector matches (with text, if
 * given) — armed before the gesture, so nothing that appears quickly is missed.
 */
const PROBE = String.raw`
(() => {
  const last = { click: 0, input: 0 };
  window.addEventListener('click', () => { last.click = performance.now(); }, true);
  window.addEventListener('input', () => { last.input = performance.now(); }, true);
  const found = new Map();
  const longest = new Map();
  const matches = (selector, text) => {
    const el = document.querySelector(selector);
    return el !== null && (text === null || el.textContent === text);
  };
  window.__outputBench = {
    last,
    arm(name, selector, text) {
      found.delete(name);
      longest.set(name, 0);
      let before = performance.now();
      const tick = () => {
        const now = performance.now();
        longest.set(name, Math.max(longest.get(name), now - before));
        before = now;
        if (matches(selector, text)) found.set(name, now);
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    async seen(name, timeoutMs) {
      const t0 = performance.now();
      while (!found.has(name)) {
        const failed = document.querySelector('.error-box');
        if (failed) throw new Error('the page showed an error: ' + failed.textContent);
        if (performance.now() - t0 > timeoutMs) throw new Error(name + ' not seen within ' + timeoutMs + ' ms');
        await new Promise((r) => setTimeout(r, 20));
      }
      return found.get(name);
    },
    /** The longest frame while the watch was waiting. */
    longest: (name) => longest.get(name),
    /** Bytes the page read from the API so far, by route. */
    apiBytes() {
      const by = { detail: 0, events: 0, value: 0, other: 0 };
      for (const e of performance.getEntriesByType('resource')) {
        const path = new URL(e.name).pathname;
        if (!path.startsWith('/api/runs/')) continue;
        const k = /\/events$/.test(path) ? 'events' : /\/value$/.test(path) ? 'value' : /^\/api\/runs\/[^/]+$/.test(path) ? 'detail' : 'other';
        by[k] += e.decodedBodySize;
      }
      return by;
    },
  };
})();
`;

interface OutputOpen {
  /** The run page: from the route change to the step on the graph. */
  pageMs: number;
  /** The longest frame meanwhile (the page busy, a click would wait). */
  pageFrameMs: number;
  /** Click on the step to the output's row (its stub, with "load") in the step detail. */
  stepMs: number;
  /** Click on the output's "load" to its first level drawn (the orders array, itself a stub). */
  firstLevelMs: number;
  /** Click on the orders' "load" to its first entries drawn (500 of them fetched). */
  entriesMs: number;
  /** Typing the deep value to the count reading "1 match". */
  searchMs: number;
  /** Enter to the match's row in view, marked current (its order and customer opened). */
  gotoMs: number;
  rowsInDom: number;
  treeRows: number;
  bytes: { detail: number; events: number; value: number };
}

const call = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
const arm = (page: Page, name: string, selector: string, text: string | null = null): Promise<unknown> =>
  call(page, `window.__outputBench.arm(${JSON.stringify(name)}, ${JSON.stringify(selector)}, ${JSON.stringify(text)})`);
const seen = (page: Page, name: string): Promise<number> => call<number>(page, `window.__outputBench.seen(${JSON.stringify(name)}, ${TIMEOUT_MS})`);
const lastClick = (page: Page): Promise<number> => call<number>(page, 'window.__outputBench.last.click');

/** One open in a fresh browser context (empty cache, a new session). */
async function openOnce(browser: Browser, served: Served, run: BenchRun): Promise<OutputOpen> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    await page.goto(served.address);
    await page.getByTestId('nav-runs').waitFor({ timeout: TIMEOUT_MS });
    const node = `[data-testid="step-node-${STEP}"]`;
    await arm(page, 'page', node);
    const routed = await call<number>(page, `(() => { const t = performance.now(); location.hash = ${JSON.stringify(`#/run/${run.runId}`)}; return t; })()`);
    const pageMs = (await seen(page, 'page')) - routed;
    const pageFrameMs = await call<number>(page, `window.__outputBench.longest('page')`);
    // The timeline reads the run's events (the 5 MB output and the input it echoes, whole) in
    // the background; a person looks at the graph for a moment first, so wait for it to draw.
    await page.locator('[data-testid="timeline-bar"]').first().waitFor({ timeout: TIMEOUT_MS });

    const output = '[data-testid="attempt-output"]';
    const rowSel = (path: string): string => `${output} [data-testid="json-row"][data-path=${JSON.stringify(path)}]`;
    await arm(page, 'step', `${output} [data-testid="json-row"] [data-testid="json-load"]`);
    await page.locator(node).click();
    const stepMs = (await seen(page, 'step')) - (await lastClick(page));

    const root = await page.locator(`${output} [data-testid="json-row"]`).first().getAttribute('data-path');
    if (root === null) throw new Error('runs bench: the output\'s row has no data-path');
    await arm(page, 'first level', rowSel(`${root}.orders`));
    await page.locator(rowSel(root)).getByTestId('json-load').click();
    const firstLevelMs = (await seen(page, 'first level')) - (await lastClick(page));

    await arm(page, 'entries', rowSel(`${root}.orders[0]`));
    await page.locator(rowSel(`${root}.orders`)).getByTestId('json-load').click();
    const entriesMs = (await seen(page, 'entries')) - (await lastClick(page));
    const rowsInDom = await call<number>(page, `document.querySelectorAll('${output} [data-testid="json-row"]').length`);
    const treeRows = Number(await page.locator(`${output} [role="tree"]`).getAttribute('data-rows'));

    await arm(page, 'search', `${output} [data-testid="json-count"]`, '1 match');
    await page.locator(`${output} [data-testid="json-search"]`).fill(`c${DEEP_ORDER}@example.com`);
    const searchMs = (await seen(page, 'search')) - (await call<number>(page, 'window.__outputBench.last.input'));
    const emailRow = `${rowSel(`${root}.orders[${DEEP_ORDER}].customer.email`)}[data-match="current"]`;
    await arm(page, 'goto', emailRow);
    const pressed = await call<number>(page, 'performance.now()');
    await page.locator(`${output} [data-testid="json-search"]`).press('Enter');
    const gotoMs = (await seen(page, 'goto')) - pressed;
    if (!(await page.locator(emailRow).isVisible())) throw new Error('runs bench: the search\'s match is in the DOM but not in view');

    const bytes = await call<OutputOpen['bytes']>(page, 'window.__outputBench.apiBytes()');
    return { pageMs, pageFrameMs, stepMs, firstLevelMs, entriesMs, searchMs, gotoMs, rowsInDom, treeRows, bytes };
  } finally {
    await context.close();
  }
}

const ms = (n: number): string => n.toFixed(0);
const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;
const kb = (n: number): string => `${(n / 1e3).toFixed(0)} KB`;

/** Opens the big output REPS times and prints its table. */
export async function measureOutput(browser: Browser, served: Served, run: BenchRun, print: (line: string) => void): Promise<void> {
  const opens: OutputOpen[] = [];
  for (let rep = 0; rep < REPS; rep++) opens.push(await openOnce(browser, served, run));
  const med = (f: (o: OutputOpen) => number): string => ms(median(opens.map(f)));
  const min = (f: (o: OutputOpen) => number): string => ms(Math.min(...opens.map(f)));
  const total = (o: OutputOpen): number => o.stepMs + o.firstLevelMs + o.entriesMs;
  const first = opens[0];
  const rows: string[][] = [
    [`open a ${run.label} (run page)`, 'median ms', 'min ms', 'target'],
    ['click the step: its output row (stub)', med((o) => o.stepMs), min((o) => o.stepMs), ''],
    ['load: first level (orders, a stub)', med((o) => o.firstLevelMs), min((o) => o.firstLevelMs), ''],
    ['load orders: first entries drawn', med((o) => o.entriesMs), min((o) => o.entriesMs), ''],
    ['to the first rows of the value, in all', med(total), min(total), 'none'],
    ['search a deep value: "1 match"', med((o) => o.searchMs), min((o) => o.searchMs), 'none'],
    ['Enter: the match in view', med((o) => o.gotoMs), min((o) => o.gotoMs), ''],
    ['for reference: #/run/ID to the graph', med((o) => o.pageMs), min((o) => o.pageMs), ''],
    ['  its longest frame meanwhile', med((o) => o.pageFrameMs), min((o) => o.pageFrameMs), ''],
  ];
  for (const row of formatTable(rows)) print(row);
  print(`medians of ${REPS} opens, each in a fresh browser context on the built app (dist/app) at #/run/ID: a real click on step-node-${STEP},`);
  print('then on the output\'s "load", then on the "load" of the orders array inside; each timed by the page from the click to the first');
  print('frame with the rows in the DOM ("in all" adds the three, without the time between gestures). The search types');
  print(`c${DEEP_ORDER}@example.com (orders[${DEEP_ORDER}].customer.email, in the 500 entries loaded) and presses Enter. The issue sets no target.`);
  if (first !== undefined) {
    print(`the tree then has ${first.treeRows.toLocaleString('en')} rows, ${first.rowsInDom} in the DOM. The page read ${kb(first.bytes.detail)} of run detail,`);
    print(`${kb(first.bytes.value)} of values (GET /value, depth=1) and ${first.bytes.events < 1e6 ? kb(first.bytes.events) : mb(first.bytes.events)} of events (the timeline pages the log with elide=65536: the output comes as a stub).`);
  }
}
