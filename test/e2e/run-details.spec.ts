// The small things of a run's pages (issue 21, point 7), in Debian's chromium against the real
// `weft serve` on a copy of examples/:
// - a record-update run whose records API answers 500 to every write fails through the end step
//   write_failed while the runs list is open: its FAILED AT cell fills in without a reload; its
//   page opens at `write` and the header names `write` too; a disabled action says "the run has
//   failed", never "the run is failed";
// - a research-review run waiting on its review: the due time reads in the user's locale with a
//   relative time ("in 2 days"), the exact ISO time on hover; Revise lists the fields in the
//   input schema's order; the task card's `by` is the server's user (WEFT_USER), and a name the
//   user types instead is remembered.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, listenLoopback, shootBothThemes, startServe, type Loopback, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let records: Loopback;

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

test.use({ locale: 'en-US', timezoneId: 'Europe/Berlin' });

test.beforeAll(async () => {
  ws = exampleWorkspace();
  // record-update with its write's retry waits shortened: three failing attempts need not wait
  // seconds of backoff.
  const file = join(ws.dir, 'record-update.weft.json');
  const wf = JSON.parse(readFileSync(file, 'utf8')) as { steps: { retry?: Record<string, number> }[] };
  for (const s of wf.steps) if (s.retry !== undefined) Object.assign(s.retry, { initialIntervalMs: 50, maxIntervalMs: 100, jitter: 0 });
  writeFileSync(file, JSON.stringify(wf, null, 2));
  // A records store that is down: every write answers 500.
  records = await listenLoopback((req, res) => {
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal","message":"the records store is down"}');
  });
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  await records?.close();
  ws?.remove();
});

async function startRun(workflow: string, input: unknown): Promise<string> {
  const r = await fetch(`${served.url}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ workflow, input }) });
  expect(r.status).toBe(201);
  return ((await r.json()) as { runId: string }).runId;
}

async function runState(runId: string): Promise<string> {
  const r = await fetch(`${served.url}/api/runs/${runId}`, { headers: { authorization: `Bearer ${served.token}` } });
  return ((await r.json()) as { run: { state: string } }).run.state;
}

async function stepState(runId: string, stepId: string): Promise<string | undefined> {
  const r = await fetch(`${served.url}/api/runs/${runId}`, { headers: { authorization: `Bearer ${served.token}` } });
  return ((await r.json()) as { steps: { id: string; state: string }[] }).steps.find((s) => s.id === stepId)?.state;
}

async function openRuns(page: Page): Promise<void> {
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await expect(page.getByTestId('run-count')).toBeVisible();
}

test('a run that fails through an end step while the list is open: FAILED AT fills in live, and its page and header name the step that went wrong', async ({ page }) => {
  await openRuns(page);
  const runId = await startRun('record-update', { apiBase: records.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' });
  const row = page.getByTestId(`run-row-${runId}`);
  // The list finds the new run on its next read, and watches it while it runs.
  await expect(row).toBeVisible();
  await expect.poll(() => runState(runId)).toBe('failed');
  await expect(row.locator('.state')).toHaveText('failed');
  // No reload: the row says where it failed.
  await expect(row.getByTestId(`run-failure-${runId}`)).toHaveText(/^write\b/);

  await row.click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write');
  const failing = page.getByTestId('run-failing');
  await expect(failing).toContainText('write');
  await expect(failing.locator('.mono').first()).toHaveText('write');
  await expect(failing).toContainText('write_failed');
  // The grammar of a disabled action's reason.
  await expect(page.getByTestId('action-pause')).toHaveAttribute('title', /the run has failed/);
  await shootBothThemes(page, 'run-details-failing-head', { 'the header': page.locator('.run-head'), 'where it failed': failing });
});

test('a waiting review: its due time in words, Revise in the schema’s order, and the task’s `by` is the user, remembered once changed', async ({ page }) => {
  const runId = await startRun('research-review', { topic: 'saga patterns', audience: 'platform engineers', maxWords: 800 });
  await expect.poll(() => stepState(runId, 'review')).toBe('waiting');
  await page.goto(`${served.address}`);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
  await page.getByTestId('step-node-review').click();
  const next = page.getByTestId('step-next');
  await expect(next).toContainText('timer fires');
  await expect(next).toContainText('in 2 days');
  await expect(next).not.toHaveText(ISO);
  const due = next.locator('time');
  await expect(due).toHaveAttribute('title', ISO);
  await expect(due).toHaveAttribute('datetime', ISO);
  // The restart record says it the same way.
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-step-review')).toContainText('in 2 days');
  await expect(page.getByTestId('record-step-review')).not.toHaveText(ISO);
  await shootBothThemes(page, 'run-details-due', { 'the restart record': page.getByTestId('record-step-review') });

  // Revise: the fields in the order the input schema lists them (topic, audience, maxWords).
  await page.getByTestId('action-revise').click();
  const revise = page.getByTestId('dialog-revise');
  await expect(revise.getByTestId('field-topic')).toBeVisible();
  const fields = revise.locator('[data-testid^="field-"]');
  const order: (string | null)[] = [];
  for (let i = 0; i < (await fields.count()); i++) order.push(await fields.nth(i).getAttribute('data-testid'));
  expect(order.filter((id) => id === 'field-topic' || id === 'field-audience' || id === 'field-maxWords')).toEqual(['field-topic', 'field-audience', 'field-maxWords']);
  await revise.getByRole('button', { name: 'Cancel' }).click();

  // The task card: by the server's user (WEFT_USER=e2e), and a name typed instead is remembered.
  await page.getByTestId('nav-tasks').click();
  const card = page.getByTestId(`task-${runId}-review`);
  await card.getByTestId('task-toggle').click();
  const by = card.getByTestId('action-by');
  await expect(by).toHaveValue('e2e');
  await by.fill('Ana Lima');
  await page.reload();
  await page.getByTestId(`task-${runId}-review`).getByTestId('task-toggle').click();
  await expect(page.getByTestId(`task-${runId}-review`).getByTestId('action-by')).toHaveValue('Ana Lima');
});
