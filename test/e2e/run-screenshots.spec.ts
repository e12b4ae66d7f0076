// The screenshot set, from one run that shows retries, an unknown outcome and a human
// rejection together (test/e2e/fixtures/showcase.weft.json against the real `weft serve`): a quote
// API that fails twice and then answers, a record write whose reply never comes, and an editor
// who rejects the offer with a reason on the run page and approves the revision. Each picture is
// taken in both themes through the app's own theme toggle, and each asserts what it shows. A
// second test shows a map whose step succeeded although an item failed.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { copyFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, listenLoopback, openRunFromList, REPO_ROOT, type Served, shootBothThemes, startServe, weft, type Workspace } from './weft-serve.ts';
import { CHECK_ALL, CHECK_ITEM } from '../fixtures/map-items.ts';

let ws: Workspace;
let served: Served;
let flaky: FlakyApi;

/**
 * The quotes and records API: GET /quote answers 503 twice, then the quote (and the quote from
 * then on); PUT /records/A17 is received and never answered, so the write times out after it was
 * sent; GET /records/A17 answers the record. Counts the quotes and the writes. Its replies carry
 * no Date header, so two runs' outputs are equal where their paths are (examples/fake-api.mjs
 * dates its replies, and the compare view would name that header as the first difference).
 */
interface FlakyApi {
  url: string;
  calls: { quote: number; put: number };
  close(): Promise<void>;
}

async function flakyApi(): Promise<FlakyApi> {
  const calls = { quote: 0, put: 0 };
  const held: ServerResponse[] = [];
  const server = await listenLoopback((req, res) => {
    res.sendDate = false;
    if (req.method === 'GET' && req.url === '/quote') {
      calls.quote += 1;
      if (calls.quote <= 2) res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'busy', message: 'try again' }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ price: 1240, currency: 'EUR' }));
      return;
    }
    if (req.method === 'PUT' && req.url === '/records/A17') {
      calls.put += 1;
      held.push(res);
      req.resume();
      return;
    }
    if (req.method === 'GET' && req.url === '/records/A17') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'A17', revision: 4, fields: { quote: 1240 } }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not_found' }));
  });
  return { url: server.url, calls, close: server.close };
}

test.beforeAll(async () => {
  ws = exampleWorkspace();
  copyFileSync(join(REPO_ROOT, 'test/e2e/fixtures/showcase.weft.json'), join(ws.dir, 'showcase.weft.json'));
  served = await startServe(ws);
  flaky = await flakyApi();
});

test.afterAll(async () => {
  await served?.stop();
  await flaky?.close();
  ws?.remove();
});

/** Switches the theme with the header's toggle (system → light → dark), as a person would. */
async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const toggle = page.getByTestId('theme-toggle');
  for (let i = 0; i < 3 && !((await toggle.getAttribute('aria-label')) ?? '').startsWith(`theme: ${theme}`); i++) await toggle.click();
  await expect(toggle).toHaveAttribute('aria-label', new RegExp(`^theme: ${theme}`));
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Both themes through the toggle, each asserting what the picture must show (weft-serve.ts). */
async function shoot(page: Page, name: string, shown: Record<string, Locator>): Promise<void> {
  await page.mouse.move(1, 1);
  await shootBothThemes(page, name, shown, useTheme);
}

const SHOWCASE_STEPS = ['fetch_quote', 'write', 'verify', 'draft', 'review', 'revise', 'done', 'expired'];

async function start(input: unknown): Promise<string> {
  const r = await weft(ws, ['run', 'showcase.weft.json', '--input', JSON.stringify(input), '--json']);
  // 3: left waiting, here for the editor.
  expect(r.code, r.stderr).toBe(3);
  return (JSON.parse(r.stdout) as { runId: string }).runId;
}


/** Label boxes on the graph that cover a step node, as "label over step". */
function labelsOverNodes(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const nodes = [...document.querySelectorAll('.react-flow__node')].map((n) => [n.getAttribute('data-id'), n.querySelector('.step-node').getBoundingClientRect()]);
    const hits = [];
    for (const l of document.querySelectorAll('.edge-label')) {
      const r = l.getBoundingClientRect();
      for (const [id, n] of nodes) if (r.left < n.right && r.right > n.left && r.top < n.bottom && r.bottom > n.top) hits.push(l.dataset.testid + ' over ' + id);
    }
    return hits;
  })()`);
}

/** Each drawn edge's arrowhead size on screen, by edge id (a marker in stroke units scales with the stroke). */
function arrowheads(page: Page): Promise<Record<string, number>> {
  return page.evaluate(`(() => {
    const out = {};
    for (const path of document.querySelectorAll('path.outcome-edge')) {
      const ref = /url\\(['"]?#([^'")]+)['"]?\\)/.exec(path.getAttribute('marker-end') || '');
      const marker = ref && document.getElementById(ref[1]);
      if (!marker) continue;
      const width = Number(marker.getAttribute('markerWidth'));
      const units = marker.getAttribute('markerUnits');
      out[path.closest('.react-flow__edge')?.getAttribute('data-id') ?? ''] = units === 'userSpaceOnUse' ? width : width * parseFloat(getComputedStyle(path).strokeWidth);
    }
    return out;
  })()`);
}

test('one run with retries, an unknown write and a rejection: timeline, provenance, restart record, compare and insights in both themes', async ({ page }) => {
  const input = { apiBase: flaky.url, topic: 'rack cooling' };
  const runId = await start(input);
  expect(flaky.calls).toEqual({ quote: 3, put: 1 });

  // The editor rejects the offer with a reason on the run page, then approves the revision.
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);
  await page.getByTestId('step-node-review').click();
  await page.getByTestId('action-reject').click();
  await page.getByTestId('action-reason').fill('Quote the price per rack, not the total');
  await page.getByTestId('submit-action').click();
  await expect(page.getByTestId('step-state-revise')).toHaveText(/succeeded/);
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);
  await page.getByTestId('step-node-review').click();
  await page.getByTestId('action-approve').click();
  await page.getByTestId('dialog-approve').getByTestId('submit-action').click();
  await expect(page.getByTestId('run-state')).toHaveText('succeeded');

  // The graph: the write stays unknown (nothing sent it again), fetch_quote shows its three attempts.
  await expect(page.getByTestId('step-state-write')).toHaveText(/^unknown$/);
  await expect(page.getByTestId('step-state-fetch_quote')).toHaveText(/succeeded\s*×3/);
  expect(flaky.calls.put).toBe(1);
  // No edge label covers a node, and every arrowhead has one size: taken edges are drawn heavier.
  expect(await labelsOverNodes(page)).toEqual([]);
  expect(await page.locator('path.outcome-edge[data-taken="true"]').count()).toBeGreaterThan(2);
  const sizes = await arrowheads(page);
  expect(Object.keys(sizes)).toHaveLength(8);
  expect(new Set(Object.values(sizes)).size).toBe(1);

  // The timeline: three attempt bars for the quote (failed, failed, succeeded) with two retry
  // waits between them; the write's one attempt ended unknown; the review waited for a person twice.
  const quoteRow = page.locator('[data-testid="timeline-row"][data-step="fetch_quote"]');
  await expect(quoteRow.locator('[data-testid="timeline-bar"][data-kind="running"]')).toHaveCount(3);
  const outcomes: (string | null)[] = [];
  for (const bar of await quoteRow.locator('[data-testid="timeline-bar"][data-kind="running"]').all()) outcomes.push(await bar.getAttribute('data-outcome'));
  expect(outcomes).toEqual(['failed', 'failed', 'succeeded']);
  await expect(quoteRow.locator('[data-testid="timeline-bar"][data-kind="retry_wait"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="timeline-row"][data-step="write"] [data-testid="timeline-bar"][data-outcome="unknown"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="timeline-row"][data-step="review"]')).toHaveCount(2);
  await page.locator('[data-testid="timeline-row"][data-step="write"] [data-testid="timeline-bar"][data-outcome="unknown"]').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write');
  await expect(page.getByTestId('attempt-error-outcome')).toHaveText('Outcome unknown');
  // The code only repeats the outcome, so it is not shown again.
  await expect(page.getByTestId('attempt-error-code')).toHaveCount(0);
  await expect(page.getByTestId('attempt-error-message')).toContainText('timed out after 5000 ms');
  // The picture: the quote's second attempt selected, its 503 in the detail, the retries beside it.
  await page.getByTestId('step-node-fetch_quote').click();
  await page.getByTestId('attempt-tab-fetch_quote/1.2').click();
  await expect(page.getByTestId('attempt-detail')).toHaveAttribute('data-attempt', 'fetch_quote/1.2');
  await expect(page.getByTestId('attempt-error-outcome')).toHaveText('Failed');
  await expect(page.getByTestId('attempt-error-code')).toHaveText('http_503');
  await shoot(page, 'showcase-timeline', {
    ...appChrome(page),
    'run state': page.getByTestId('run-state'),
    ...Object.fromEntries(SHOWCASE_STEPS.map((id) => [`step ${id}`, page.getByTestId(`step-node-${id}`)])),
    "the quote's timeline row": quoteRow,
    'attempt detail': page.getByTestId('attempt-detail'),
    'its error code': page.getByTestId('attempt-error-code'),
  });

  // The step detail of the revision: the reason is in its input, and provenance links lead to
  // the review attempt that gave it.
  await page.getByTestId('step-node-revise').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'revise');
  await expect(page.getByTestId('attempt-input')).toContainText('Quote the price per rack, not the total');
  await expect(page.getByTestId('provenance')).toContainText('steps.review.output.reason');
  await page.getByTestId('provenance').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('provenance-link-review').first()).toBeInViewport();
  await shoot(page, 'showcase-step-provenance', {
    ...appChrome(page),
    'revise on the graph': page.getByTestId('step-node-revise'),
    provenance: page.getByTestId('provenance'),
    'link to the review': page.getByTestId('provenance-link-review').first(),
  });
  await page.getByTestId('provenance-link-review').first().click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'review');

  // The restart record in words, at the write: its unknown outcome and what it allows now.
  await page.getByTestId('step-node-write').click();
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-step-write')).toContainText('outcome unknown');
  await expect(page.getByTestId('record-step-write')).toHaveAttribute('data-state', 'unknown');
  await expect(page.getByTestId('record-step-fetch_quote')).toContainText('fetch_quote/1.3');
  await expect(page.getByTestId('record-step-done')).toHaveAttribute('data-state', 'succeeded');
  await shoot(page, 'showcase-restart-record', {
    ...appChrome(page),
    'the write': page.getByTestId('record-step-write'),
    'the quote': page.getByTestId('record-step-fetch_quote'),
  });

  // A second run whose offer is approved at once: it takes the other path out of review.
  const other = await start(input);
  expect((await weft(ws, ['approve', other, 'review'])).code).toBe(0);
  await page.getByTestId('compare-button').click();
  await page.locator(`[data-testid="compare-pick"][data-run="${other}"]`).click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('first-difference')).toHaveAttribute('data-step', 'review');
  await expect(page.getByTestId('first-difference')).toHaveAttribute('data-kind', 'path');
  await expect(page.getByTestId('first-difference')).toContainText('review');
  await shoot(page, 'showcase-compare', { ...appChrome(page), compare: page.getByTestId('compare-view'), 'first difference': page.getByTestId('first-difference') });

  // Insights over the two runs: both succeeded, one needed a person's rejection.
  await page.goto(`${served.url}/#/insights/showcase`);
  const insights = page.getByTestId('insights');
  await expect(insights.getByTestId('insights-runs')).toHaveText('2');
  await expect(insights.getByTestId('insights-success')).toHaveText('100%');
  // review decided three times (rejected once, approved twice): the rejection edge, 1 of 3, by half the runs.
  const rejectedShare = page.getByTestId('insights-graph').getByTestId('edge-share-review_rejected');
  await expect(rejectedShare).toHaveText('33%');
  await expect(rejectedShare).toHaveAttribute('title', /by 50% of runs/);
  await expect(page.getByTestId('insights-rates')).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 1620 });
  await shoot(page, 'showcase-insights', {
    ...appChrome(page),
    runs: insights.getByTestId('insights-runs'),
    success: insights.getByTestId('insights-success'),
    graph: page.getByTestId('insights-graph'),
    "the rejection's share": rejectedShare,
    'rates over time': page.getByTestId('insights-rates'),
  });
});

test('a selected edge in the editor has the same arrowhead as the others', async ({ page }) => {
  await page.goto(served.address);
  await page.goto(`${served.url}/#/workflow/showcase`);
  await expect(page.getByTestId('step-node-verify')).toBeVisible();
  const edge = page.locator('.react-flow__edge[data-id="review_rejected"]');
  await expect(edge.locator('path.outcome-edge')).toBeVisible();
  const before = await arrowheads(page);
  // A click on the curve a quarter along it (its middle carries the label).
  const at = await page.evaluate(`(() => {
    const path = document.querySelector('.react-flow__edge[data-id="review_rejected"] path.outcome-edge');
    const p = path.getPointAtLength(path.getTotalLength() / 4).matrixTransform(path.getScreenCTM());
    return { x: p.x, y: p.y };
  })()`);
  const point = at as { x: number; y: number };
  await page.mouse.click(point.x, point.y);
  await expect(edge.locator('path.outcome-edge')).toHaveAttribute('data-selected', 'true');
  const after = await arrowheads(page);
  expect(Object.keys(after)).toHaveLength(8);
  expect(new Set(Object.values(after)).size).toBe(1);
  expect(after).toEqual(before);
});

test('a map that succeeded although an item failed says "1 of 3 items failed" on its node and in its detail, linking the failed item', async ({ page }) => {
  writeFileSync(join(ws.dir, 'check-item.weft.json'), JSON.stringify(CHECK_ITEM));
  writeFileSync(join(ws.dir, 'check-all.weft.json'), JSON.stringify(CHECK_ALL));
  const r = await weft(ws, ['run', 'check-all.weft.json', '--input', JSON.stringify({ skus: ['OK-1', 'BAD-2', 'OK-3'] }), '--json']);
  expect(r.code, r.stderr).toBe(0);
  const { runId } = JSON.parse(r.stdout) as { runId: string };
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('step-state-check_each')).toHaveText(/succeeded/);
  await expect(page.getByTestId('step-items-failed-check_each')).toHaveText('1/3 failed');
  await page.getByTestId('step-node-check_each').click();
  await expect(page.getByTestId('step-items-failed')).toContainText('1 of 3 items failed');
  await shoot(page, 'map-items-failed', {
    ...appChrome(page),
    'the map on the graph': page.getByTestId('step-node-check_each'),
    "the node's count": page.getByTestId('step-items-failed-check_each'),
    "the detail's count": page.getByTestId('step-items-failed'),
    'link to the failed item': page.getByTestId('failed-item-1'),
  });
  await page.getByTestId('failed-item-1').click();
  await expect(page.getByTestId('run-state')).toHaveText('failed');
  await expect(page.getByTestId('parent-run')).toContainText(`${runId} · check_each [1]`);
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'check');
  await expect(page.getByTestId('attempt-error-code')).toHaveText('acceptance_not_met');
});
