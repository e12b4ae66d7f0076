// The app's server data in Debian's chromium against the real `weft serve`: the runs list is paged
// and filtered by the server (a run older than the first 500 is found, more pages load as the list
// is scrolled), the run page draws its first timeline rows before the run's detail has come, the
// timeline and time travel read the run's events once between them, and the live stream
// subscribes to the runs shown, never to every run.
import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, startServe, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
const runs: string[] = [];
/** More than the 500 runs the list once loaded at most. */
const RUNS = 520;

const tick = {
  format: 'weft/v1', id: 'tick', version: 1, name: 'Tick',
  steps: [{ id: 'count', kind: 'transform', config: { expression: 'input.n + 1' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e', from: 'count', to: 'done' }],
};
const waits = {
  format: 'weft/v1', id: 'waits', version: 1, name: 'Waits for a person',
  steps: [
    { id: 'prepare', kind: 'transform', config: { expression: '{"title": "t"}' } },
    { id: 'check', kind: 'human', config: { task: 'approve', title: 'Check it', assignee: 'e2e' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'prepare', to: 'check' }, { id: 'b', from: 'check', to: 'done' }],
};

async function startRun(workflow: string, input: unknown): Promise<string> {
  const r = await fetch(`${served.url}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ workflow, input }) });
  expect(r.status).toBe(201);
  return ((await r.json()) as { runId: string }).runId;
}

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'tick.weft.json'), JSON.stringify(tick));
  writeFileSync(join(ws.dir, 'waits.weft.json'), JSON.stringify(waits));
  served = await startServe(ws);
  for (let i = 0; i < RUNS; i += 20) runs.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => startRun('tick', { n: i + j })))));
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

test('the runs list pages from the server: more as it is scrolled, and its text filter finds a run older than the first 500', async ({ page }) => {
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  const rows = page.locator('[data-testid^="run-row-"]');
  await expect(rows.first()).toBeVisible();
  const first = await rows.count();
  expect(first).toBeLessThan(RUNS);
  await expect(page.getByTestId('run-count')).toContainText('+');
  // Scrolled to its end, the list reads its next page.
  await page.getByTestId('runs-load-more').scrollIntoViewIfNeeded();
  await expect.poll(() => rows.count()).toBeGreaterThan(first);

  const oldest = runs[0] ?? '';
  await page.getByRole('searchbox', { name: 'filter runs by workflow or run id' }).fill(oldest);
  await expect(page.getByTestId(`run-row-${oldest}`)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'filter runs by workflow or run id' }).fill('no-such-run');
  await expect(page.getByText('No run matches.')).toBeVisible();
});

test('the run page draws its first timeline rows before the run’s detail has come', async ({ page }) => {
  const runId = await startRun('waits', {});
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${served.url}/api/runs/${runId}`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(served.address);
  await page.goto(`${served.url}/#/run/${runId}`);
  await expect(page.locator('[data-testid="timeline-row"][data-step="check"]')).toBeVisible();
  await expect(page.getByTestId('run-view')).toHaveCount(0);
  release();
  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect(page.getByTestId('run-state')).toHaveText(/waiting/);
});

test('the timeline and time travel read the run’s events once between them, and the stream subscribes to the run shown only', async ({ page }) => {
  const runId = await startRun('waits', {});
  const eventReads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/runs/${runId}/events`)) eventReads.push(r.url());
  });
  const subscribes: unknown[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', (frame) => {
      if (typeof frame.payload === 'string' && frame.payload.includes('subscribe')) subscribes.push((JSON.parse(frame.payload) as { subscribe: { runs: unknown } }).subscribe.runs);
    });
  });
  await page.goto(served.address);
  await page.goto(`${served.url}/#/run/${runId}`);
  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect(page.locator('[data-testid="timeline-row"][data-step="check"]')).toBeVisible();
  await page.getByTestId('tt-prev-event').click();
  await expect(page.getByTestId('time-travel-banner')).toBeVisible();
  await page.getByTestId('tt-live').click();
  expect(eventReads).toHaveLength(1);
  await expect.poll(() => subscribes.some((runs) => Array.isArray(runs) && runs.includes(runId))).toBe(true);
  expect(subscribes).not.toContain('all');

  // A person answers elsewhere: the stream brings the run's events, and the page follows it.
  const r = await fetch(`${served.url}/api/tasks/${runId}/check`, { method: 'POST', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ action: 'approve', by: 'e2e' }) });
  expect(r.status).toBe(200);
  await expect(page.getByTestId('run-state')).toHaveText(/succeeded/);
  await expect(page.locator('[data-testid="timeline-row"][data-step="done"]')).toBeVisible();
  expect(subscribes).not.toContain('all');
});
