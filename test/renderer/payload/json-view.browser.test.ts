// JsonView in a real browser (Debian's chromium, driven by Playwright), built by esbuild from the
// real component, against a real `weft serve` over a real store whose run output is about 5 MB:
// the page's /api/ requests are passed to that server. It opens the whole value, scrolls it,
// searches it, and opens the RunDetail's stub of it level by level. Every wait is for a state in
// the page, never for time: the tree's row count is awaited in the page itself (data-rows and
// data-ready on the tree), not polled from here with a short budget a loaded machine once missed
// while flattening 40,000 rows. Screenshots in both themes go to test-results/ for a person to
// check, each asserting what it must show.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { bundleHarness, collectPageErrors, launchChromium, mountable, newHarnessPage, remountHarness, shootBothThemes } from '../browser-harness.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../../engine/server/serve.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const ITEMS = 40_000;
const OUTPUT = 'steps.fetch.attempts[0].output';

const HARNESS = `
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { JsonView } from './renderer/runs/payload/json-view.tsx';
import { PayloadClient } from './renderer/api/payload-client.ts';

const client = new PayloadClient('${TOKEN}');
const headers = { authorization: 'Bearer ${TOKEN}' };

function App() {
  const [props, setProps] = useState(null);
  window.harness = {
    // The run's whole output, as a view that has it all (the timeline builds RunDetail from events).
    async showFull(runId) {
      const r = await fetch('/api/runs/' + runId + '/value?path=' + encodeURIComponent('${OUTPUT}'), { headers });
      const body = await r.json();
      setProps({ value: body.value, label: 'output', valuePath: '${OUTPUT}' });
    },
    // The RunDetail's stub of it, as the run page gets it.
    async showDetail(runId) {
      const r = await fetch('/api/runs/' + runId, { headers });
      const detail = await r.json();
      window.detailBytes = JSON.stringify(detail).length;
      setProps({ value: detail.steps[0].attempts[0].output, runId, label: 'output' });
    },
  };
  if (props === null) return <span data-testid="empty">nothing yet</span>;
  return (
    <div style={{ width: 640, padding: 16 }}>
      <input data-testid="elsewhere" />
      <JsonView {...props} client={client} testId="json-view" />
    </div>
  );
}
${mountable('<App />')}`;

let root: string;
let serving: Serving;
let runId: string;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];
const files = new Map<string, { type: string; body: string }>();
const ORIGIN = 'http://weft.test';
const VIEWPORT = { width: 680, height: 520 };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-json-view-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'big.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'big', version: 1, name: 'Big output',
    steps: [
      { id: 'fetch', kind: 'transform', config: { expression: `{"count": ${ITEMS}, "items": [0..${ITEMS - 1}].{"id": $, "name": "item " & $, "tags": ["a", "b"], "note": $pad("", 90, "x")}, "odd key": {"a b": [1, 2, 3], "flag": true, "nothing": null}}` } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'a', from: 'fetch', to: 'done' }],
  }));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  const api = `http://127.0.0.1:${serving.port}`;
  const started = (await (await fetch(`${api}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ workflow: 'big', input: {} }) })).json()) as { runId: string };
  runId = started.runId;
  for (let state = ''; state !== 'succeeded'; ) {
    state = ((await (await fetch(`${api}/api/runs/${runId}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { run: { state: string } }).run.state;
    expect(['running', 'succeeded']).toContain(state);
  }

  for (const [path, file] of await bundleHarness(HARNESS, 'harness.tsx', { nodeEnv: 'production' })) files.set(path, file);
  browser = await launchChromium();
  // One page for every test, its harness mounted anew for each (a fresh page costs seconds).
  page = await newHarnessPage(browser, { viewport: VIEWPORT });
  pageErrors = collectPageErrors(page);
  await page.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/api/')) {
      // To the real server, as the app's own origin would reach it.
      const r = await fetch(`http://127.0.0.1:${serving.port}${url.pathname}${url.search}`, { headers: { authorization: route.request().headers()['authorization'] ?? '' } });
      return route.fulfill({ status: r.status, contentType: 'application/json', body: Buffer.from(await r.arrayBuffer()) });
    }
    const file = files.get(url.pathname);
    if (file === undefined) return route.fulfill({ status: 404 });
    return route.fulfill({ status: 200, contentType: file.type, body: file.body });
  });
  await page.goto(`${ORIGIN}/`);
});

afterAll(async () => {
  await browser?.close();
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await remountHarness(page, VIEWPORT);
  await expect.poll(() => js<boolean>('window.harness !== undefined')).toBe(true);
});

afterEach(() => {
  // Nothing the view does may throw or log an error (the page's loading counts for the first).
  expect(pageErrors.splice(0)).toEqual([]);
});

const js = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
const row = (path: string) => page.locator(`[data-testid="json-row"][data-path='${path}']`);
const rowCount = () => js<number>(`document.querySelectorAll('[data-testid="json-row"]').length`);
/** Waits, in the page, until the tree holds `rows` rows and has finished flattening them. */
const treeHas = (rows: number) => page.locator(`[role="tree"][data-rows="${rows}"][data-ready="true"]`).waitFor();

describe('JsonView with a 5 MB value', () => {
  it('opens it with the root open, renders only the rows in view, and scrolls through 40,000 items', async () => {
    await js(`window.harness.showFull('${runId}')`);
    await row(`${OUTPUT}.items`).waitFor();
    expect(await row(OUTPUT).getAttribute('aria-expanded')).toBe('true');
    expect(await row(`${OUTPUT}.items`).getAttribute('aria-expanded')).toBe('false');
    expect(await row(`${OUTPUT}.items`).textContent()).toContain('40,000 items');

    await row(`${OUTPUT}.items`).getByRole('button', { name: `expand ${OUTPUT}.items` }).click();
    await treeHas(4 + ITEMS);
    // Virtualized: a few dozen rows in the page, not 40,000.
    expect(await rowCount()).toBeLessThan(80);

    await js(`document.querySelector('.json-scroller').scrollTo(0, 1e9)`);
    await row(`${OUTPUT}["odd key"]`).waitFor();
    await row(`${OUTPUT}.items[${ITEMS - 1}]`).waitFor();
    expect(await rowCount()).toBeLessThan(80);
  });

  it('searches all of it while typing stays live, and goes to each match, opening what holds it', async () => {
    await js(`window.harness.showFull('${runId}')`);
    await row(`${OUTPUT}.items`).waitFor();
    const search = page.getByTestId('json-search');
    await search.click();
    await page.keyboard.type('item 1234');
    // Every keystroke reached the box (typing was never swallowed), and the count is complete.
    expect(await search.inputValue()).toBe('item 1234');
    await expect.poll(() => page.getByTestId('json-count').textContent()).toBe('11 matches');
    await page.keyboard.press('Enter');
    await row(`${OUTPUT}.items[1234].name`).waitFor();
    expect(await row(`${OUTPUT}.items[1234].name`).getAttribute('data-match')).toBe('current');
    expect(await row(`${OUTPUT}.items[1234].name`).locator('mark').textContent()).toBe('item 1234');
    expect(await page.getByTestId('json-count').textContent()).toBe('1 / 11 matches');
    await page.keyboard.press('Enter');
    await row(`${OUTPUT}.items[12340].name`).waitFor();
    expect(await row(`${OUTPUT}.items[12340].name`).getAttribute('data-match')).toBe('current');
    await page.keyboard.press('Shift+Enter');
    await expect.poll(() => row(`${OUTPUT}.items[1234].name`).getAttribute('data-match')).toBe('current');

    // Filter: only the matches and what holds them.
    await page.getByTestId('json-filter').click();
    await treeHas(1 + 1 + 11 * 2);
  });

  it('is a tree for the keyboard: arrows move, open, go in and out; Enter loads', async () => {
    await js(`window.harness.showFull('${runId}')`);
    await row(`${OUTPUT}.items`).waitFor();
    const tree = page.locator('[role="tree"]');
    await tree.focus();
    const activePath = () => js<string | null>(`document.getElementById(document.querySelector('[role="tree"]').getAttribute('aria-activedescendant'))?.dataset.path ?? null`);
    expect(await activePath()).toBe(OUTPUT);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await activePath()).toBe(`${OUTPUT}.items`);
    await page.keyboard.press('ArrowRight');
    await treeHas(4 + ITEMS);
    await page.keyboard.press('ArrowRight');
    expect(await activePath()).toBe(`${OUTPUT}.items[0]`);
    await page.keyboard.press('ArrowLeft');
    expect(await activePath()).toBe(`${OUTPUT}.items`);
    await page.keyboard.press('ArrowLeft');
    await treeHas(4);
    await page.keyboard.press('End');
    expect(await activePath()).toBe(`${OUTPUT}["odd key"]`);
  });

  it('a search the whole value matches is cut at 10,000 and says so', async () => {
    await js(`window.harness.showFull('${runId}')`);
    await row(`${OUTPUT}.items`).waitFor();
    await page.getByTestId('json-search').fill('x');
    await expect.poll(() => page.getByTestId('json-count').textContent()).toBe('10,000+ matches');
    await page.getByText('showing the first 10,000 matches').waitFor();
  });

  it('expand all is bounded; collapse all closes back to the root', async () => {
    await js(`window.harness.showFull('${runId}')`);
    await row(`${OUTPUT}.items`).waitFor();
    await page.getByTestId('json-expand-all').click();
    // 40,000 items would pass the bound: the small object opens, the big array does not.
    await expect.poll(() => row(`${OUTPUT}["odd key"]`).getAttribute('aria-expanded')).toBe('true');
    expect(await row(`${OUTPUT}.items`).getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('json-collapse-all').click();
    await expect.poll(() => row(`${OUTPUT}["odd key"]`).getAttribute('aria-expanded')).toBe('false');
  });
});

describe('JsonView with the RunDetail\'s stub', () => {
  it('gets a small detail and opens the value level by level, a page at a time', async () => {
    await js(`window.harness.showDetail('${runId}')`);
    await row(OUTPUT).waitFor();
    expect(await js<number>('window.detailBytes')).toBeLessThan(64 * 1024);
    expect(await row(OUTPUT).textContent()).toMatch(/object · 3 keys · 5\.\d MB/);
    // Enter on the stub's row loads it, as its button does.
    await page.locator('[role="tree"]').focus();
    await page.keyboard.press('Enter');
    // One level: the small entries as values, the big array as a stub of its own.
    await row(`${OUTPUT}.items`).waitFor();
    expect(await row(`${OUTPUT}.count`).textContent()).toContain('40000');
    expect(await row(`${OUTPUT}.items`).textContent()).toContain('40,000 items');
    await row(`${OUTPUT}.items`).getByTestId('json-load').click();
    await row(`${OUTPUT}.items[0]`).waitFor();
    await treeHas(4 + 500 + 1);
    await js(`document.querySelector('.json-scroller').scrollTo(0, 1e9)`);
    await page.getByTestId('json-more').getByRole('button').click();
    await treeHas(4 + 1000 + 1);
    // The next page went in above the "more" row, which is now out of view: scroll to it again.
    await js(`document.querySelector('.json-scroller').scrollTo(0, 1e9)`);
    expect(await page.getByTestId('json-more').textContent()).toContain('1,000 of 40,000 shown');

    // Search looks into what has been loaded.
    await page.getByTestId('json-search').fill('item 777');
    await expect.poll(() => page.getByTestId('json-count').textContent()).toBe('1 match');
    await page.getByTestId('json-next').click();
    await row(`${OUTPUT}.items[777].name`).waitFor();
  });

  it('looks right in both themes (screenshots for a person to check, asserting what they show)', async () => {
    await js(`window.harness.showDetail('${runId}')`);
    await row(OUTPUT).getByTestId('json-load').click();
    await row(`${OUTPUT}["odd key"]`).getByRole('button', { name: `expand ${OUTPUT}["odd key"]` }).click();
    await row(`${OUTPUT}["odd key"]["a b"]`).getByRole('button').first().click();
    await row(`${OUTPUT}["odd key"]["a b"][2]`).waitFor();
    const toolbar = {
      search: page.getByTestId('json-search'),
      previous: page.getByRole('button', { name: 'previous match' }),
      next: page.getByTestId('json-next'),
      filter: page.getByTestId('json-filter'),
      'expand all': page.getByTestId('json-expand-all'),
      'collapse all': page.getByTestId('json-collapse-all'),
    };
    await shootBothThemes(page, 'json-view-stub', {
      ...toolbar,
      'the root': row(OUTPUT),
      count: row(`${OUTPUT}.count`),
      'the items stub': row(`${OUTPUT}.items`),
      "its load button": row(`${OUTPUT}.items`).getByTestId('json-load'),
      'odd key': row(`${OUTPUT}["odd key"]`),
      'a b': row(`${OUTPUT}["odd key"]["a b"]`),
      'a b [2]': row(`${OUTPUT}["odd key"]["a b"][2]`),
    });
    await row(`${OUTPUT}.items`).getByTestId('json-load').click();
    await row(`${OUTPUT}.items[0]`).getByRole('button', { name: `expand ${OUTPUT}.items[0]` }).click();
    await page.getByTestId('json-search').fill('item 1');
    await page.getByTestId('json-next').click();
    await page.getByTestId('json-next').click();
    await row(`${OUTPUT}.items[10].name`).hover();
    expect(await row(`${OUTPUT}.items[10].name`).getAttribute('data-match')).toBe('current');
    await shootBothThemes(page, 'json-view', {
      ...toolbar,
      count: page.getByTestId('json-count'),
      'the current match': row(`${OUTPUT}.items[10].name`),
      'its highlight': row(`${OUTPUT}.items[10].name`).locator('mark'),
      'the item holding it': row(`${OUTPUT}.items[10]`),
    });
  });
});
