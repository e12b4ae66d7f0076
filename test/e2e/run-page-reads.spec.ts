// What the run page reads, and in which order, before its first view (docs/bench-app.md): the
// workflow file (for its layout) is asked while the run's detail is still being read, not after
// it, both when the app starts at the run's address (the session asks before the page's code has
// loaded) and when the app goes to the run (the log's first page names the workflow); and a
// failed run opens on its failing step without first drawing the restart record, a row per step.
// The detail is held back by the test until the file is asked for (bounded: with the old order,
// the file was only asked once the detail had been read, so it never came while held).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { exampleWorkspace, startServe, weft, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let runId: string;

/** A short chain whose last check fails when the input says so: a failed run in a second. */
const CHECK = {
  format: 'weft/v1',
  id: 'order-check',
  version: 1,
  name: 'Order check',
  input: { type: 'object', properties: { orderId: { type: 'string' }, fail: { type: 'boolean' } }, required: ['orderId'] },
  steps: [
    { id: 'receive', kind: 'transform', config: { expression: '{ "orderId": input.orderId }' } },
    { id: 'price', kind: 'transform', config: { expression: '{ "total": 42 }' } },
    { id: 'final_check', kind: 'transform', config: { expression: 'input.fail = true ? $error("the order total does not match the invoice") : { "checked": true }' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'receive-price', from: 'receive', to: 'price' },
    { id: 'price-final_check', from: 'price', to: 'final_check' },
    { id: 'final_check-done', from: 'final_check', to: 'done' },
  ],
  layout: { receive: { x: 0, y: 0 }, price: { x: 300, y: 0 }, final_check: { x: 600, y: 0 }, done: { x: 900, y: 0 } },
};

/** How long the detail is held back at most, waiting for the file to be asked for: a bound, not a budget. */
const HOLD_BOUND_MS = 30_000;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'order-check.weft.json'), `${JSON.stringify(CHECK, null, 2)}\n`);
  const ran = await weft(ws, ['run', 'order-check.weft.json', '--json', '--input', JSON.stringify({ orderId: 'A-1', fail: true })]);
  const result = JSON.parse(ran.stdout) as { runId: string; state: string };
  expect(result.state).toBe('failed');
  runId = result.runId;
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

/**
 * Holds `GET /api/runs/:id` (the detail) until `GET /api/workflows/order-check` has been asked
 * for, or HOLD_BOUND_MS; says whether the file was asked while the detail was held.
 */
async function holdDetailUntilFileAsked(page: Page): Promise<{ askedWhileHeld: () => boolean; detailReads: () => number }> {
  let fileAsked = false;
  let heldNow = 0;
  let askedWhileHeld = false;
  let detailReads = 0;
  let wake: () => void = () => {};
  const asked = new Promise<void>((resolve) => (wake = resolve));
  page.on('request', (r) => {
    if (new URL(r.url()).pathname !== '/api/workflows/order-check') return;
    fileAsked = true;
    if (heldNow > 0) askedWhileHeld = true;
    wake();
  });
  await page.route(`**/api/runs/${runId}`, async (route) => {
    detailReads += 1;
    if (!fileAsked) {
      heldNow += 1;
      await Promise.race([asked, new Promise((r) => setTimeout(r, HOLD_BOUND_MS))]);
      heldNow -= 1;
    }
    await route.continue();
  });
  return { askedWhileHeld: () => askedWhileHeld, detailReads: () => detailReads };
}

/** A same-document change of address: the run page mounts with the app already running. */
async function goToRun(page: Page): Promise<void> {
  await page.evaluate(`window.location.hash = '#/run/${runId}'`);
}

test('opened at its address, the run page asks for the workflow file while the run’s detail is still being read', async ({ page }) => {
  // A returning user: the token is in the tab's session storage; then a fresh document at the run's address.
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.goto('about:blank');
  const reads = await holdDetailUntilFileAsked(page);
  await page.goto(`${served.url}/#/run/${runId}`);
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'final_check');
  await expect(page.getByTestId('attempt-detail')).toBeVisible();
  await expect(page.locator('.react-flow__node[data-id="final_check"]')).toBeVisible();
  expect(reads.askedWhileHeld()).toBe(true);
  expect(reads.detailReads()).toBeGreaterThan(0);
});

test('gone to from the app, the run page asks for the workflow file while the run’s detail is still being read', async ({ page }) => {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  const reads = await holdDetailUntilFileAsked(page);
  await goToRun(page);
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'final_check');
  await expect(page.getByTestId('attempt-detail')).toBeVisible();
  expect(reads.askedWhileHeld()).toBe(true);
});

test('a failed run opens on its failing step without first drawing the restart record', async ({ page }) => {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  // Every test id the page ever gives an element is noted as it is set, even on an element that
  // is replaced within the same task (which a MutationObserver, called after it, cannot see).
  await page.evaluate(`(() => {
    const seen = [];
    window.seenTestIds = seen;
    const set = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (name, value) {
      if (name === 'data-testid') seen.push(value);
      set.call(this, name, value);
    };
  })()`);
  await goToRun(page);
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'final_check');
  await expect(page.getByTestId('run-tab-step')).toHaveAttribute('aria-selected', 'true');
  const seen = (await page.evaluate('window.seenTestIds')) as string[];
  expect(seen).toContain('step-detail');
  expect(seen.filter((id) => id === 'restart-record' || id.startsWith('record-step-'))).toEqual([]);
  // The record is one click away, whole.
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-step-final_check')).toBeVisible();
});
