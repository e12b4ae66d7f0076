// The app's shell in Debian's chromium against the real `weft serve` on a copy of examples/, with
// runs started and answered from a terminal (the CLI hands them to the server that owns the store).
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, REPO_ROOT, shootBothThemes, startServe, weft, type Served, type Workspace, startFakeApi, type FakeApi } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: FakeApi;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
  api = await startFakeApi();
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

const EXAMPLES = ['agent-escalation', 'order-payment', 'parallel-research', 'record-update', 'research-review', 'trip-saga'];

/** The graph's step nodes of an example, by step id: none may overlap another or leave the window. */
function stepNodes(page: Page, example: string): Record<string, ReturnType<Page['getByTestId']>> {
  const { steps } = JSON.parse(readFileSync(join(REPO_ROOT, `examples/${example}.weft.json`), 'utf8')) as { steps: { id: string }[] };
  return Object.fromEntries(steps.map((s) => [`step ${s.id}`, page.getByTestId(`step-node-${s.id}`)]));
}

test('the token address opens the app and lists the six examples', async ({ page }) => {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  for (const id of EXAMPLES) {
    await expect(page.getByTestId(`workflow-row-${id}`)).toBeVisible();
  }
  // The token left the address bar for session storage.
  expect(page.url()).not.toContain('token=');
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(page.getByTestId('workspace')).toContainText(ws.dir);
  await shootBothThemes(page, 'workflows', {
    ...appChrome(page),
    list: page.getByTestId('workflow-list'),
    ...Object.fromEntries(EXAMPLES.map((id) => [id, page.getByTestId(`workflow-row-${id}`)])),
  });
});

test('trip-saga shows one node per step and one edge per edge', async ({ page }) => {
  const definition = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/trip-saga.weft.json'), 'utf8')) as { steps: unknown[]; edges: unknown[] };
  await page.goto(served.address);
  await page.getByTestId('workflow-row-trip-saga').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(definition.steps.length);
  await expect(page.locator('.react-flow__edge')).toHaveCount(definition.edges.length);
  await shootBothThemes(page, 'workflow-trip-saga', { ...appChrome(page), ...stepNodes(page, 'trip-saga') });
});

test('a run of record-update started from a terminal appears and colours its nodes without a reload', async ({ page }) => {
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await expect(page.getByTestId('run-list').or(page.getByText('No runs yet'))).toBeVisible();
  const input = { apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' };
  const result = await weft(ws, ['run', 'record-update.weft.json', '--input', JSON.stringify(input), '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const { runId, state } = JSON.parse(result.stdout) as { runId: string; state: string };
  expect(state).toBe('succeeded');
  const row = page.getByTestId(`run-row-${runId}`);
  await expect(row).toContainText('succeeded');
  await row.click();
  await expect(page.getByTestId('run-state')).toHaveText('succeeded');
  await expect(page.getByTestId('step-state-write')).toHaveText(/succeeded/);
  // The edges the run took are drawn as taken; a skipped branch's are not.
  await expect(page.locator('.outcome-edge[data-taken="true"]')).not.toHaveCount(0);
  await expect(page.locator('.outcome-edge[data-taken="false"]')).not.toHaveCount(0);
  // The restart record opens a step: its attempts and what may be done with it, and why.
  await page.getByTestId('record-step-write').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write');
  await expect(page.getByTestId('attempt-detail')).toContainText('write/1.1');
  await expect(page.getByTestId('provenance')).toContainText('steps.validate.output.recordId');
  await page.getByTestId('provenance-link-validate').first().click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'validate');
  // The detail keeps the scroll it had for the step before (write's attempts), so the head of
  // validate's is brought into view for the picture.
  const head = page.getByTestId('step-detail').locator('.rsd-head');
  await head.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'run-record-update', {
    ...appChrome(page),
    'run state': page.getByTestId('run-state'),
    ...stepNodes(page, 'record-update'),
    "the step detail's head": head,
  });
});

test('a waiting run turns its nodes as a terminal answers its task', async ({ page }) => {
  const started = await weft(ws, ['run', 'research-review.weft.json', '--input', JSON.stringify({ topic: 'durable workflow engines', audience: 'platform engineers' }), '--json']);
  expect(started.code).toBe(3);
  const { runId } = JSON.parse(started.stdout) as { runId: string };
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);
  await expect(page.getByTestId('run-state')).toHaveText('waiting');
  await shootBothThemes(page, 'run-research-review-waiting', { ...appChrome(page), 'run state': page.getByTestId('run-state'), ...stepNodes(page, 'research-review') });
  const approved = await weft(ws, ['approve', runId, 'review', '--json']);
  expect(approved.code).toBe(0);
  await expect(page.getByTestId('step-state-review')).toHaveText(/succeeded/);
  await expect(page.getByTestId('run-state')).toHaveText('succeeded');
});

test('after the server restarts, the app reconnects by itself', async ({ page }) => {
  await page.goto(served.address);
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  const { port, token } = served;
  await served.stop();
  await expect(page.getByTestId('connection-lost')).toBeVisible();
  served = await startServe(ws, { port, token });
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(page.getByTestId('connection-lost')).toBeHidden();
  // It reads from the new server: a run started now appears without a reload.
  await page.getByTestId('nav-runs').click();
  const result = await weft(ws, ['run', 'record-update.weft.json', '--input', JSON.stringify({ apiBase: api.url, recordId: 'A17', field: 'owner', value: 'ana', baseRevision: 4, recipient: 'R2' }), '--json']);
  const { runId } = JSON.parse(result.stdout) as { runId: string };
  await expect(page.getByTestId(`run-row-${runId}`)).toBeVisible();
});
