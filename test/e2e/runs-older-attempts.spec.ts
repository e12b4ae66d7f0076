// The step inspector of a loop run whose steps have more attempts than the run's detail carries
// (GET /api/runs/:id keeps each step's latest DETAIL_ATTEMPTS), in Debian's chromium against the
// real `weft serve`: the inspector says how many older attempts there are, reads them on demand,
// and an older attempt's output is the one its place in the step's list says.
import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, startServe, type Served, type Workspace } from './weft-serve.ts';

/** Passes of the loop: step `a` makes this many attempts, 5 more than the detail carries. */
const PASSES = 25;

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'older-attempts.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'older-attempts', version: 1, name: 'A loop of 25 passes',
    steps: [
      { id: 'a', kind: 'transform', config: { expression: '{"pass": $activation * 1000 + 7}' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'again', from: 'a', to: 'a', maxTraversals: PASSES - 1 },
      { id: 'out', from: 'a', to: 'done', on: 'exhausted' },
    ],
  }));
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

test('a step with more attempts than the detail carries reads its older ones on demand', async ({ page }) => {
  const headers = { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' };
  const started = await fetch(`${served.url}/api/runs`, { method: 'POST', headers, body: JSON.stringify({ workflow: 'older-attempts', input: {} }) });
  expect(started.status).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await fetch(`${served.url}/api/runs/${runId}`, { headers })).json()) as { run: { state: string } }).run.state).toBe('succeeded');

  await page.goto(served.address);
  await page.goto(`${served.url}/#/run/${runId}`);
  await page.getByTestId('step-node-a').click();
  await expect(page.getByTestId('step-node-a')).toContainText(`×${PASSES}`);
  const older = page.getByTestId('older-attempts');
  await expect(older).toHaveText('5 older attempts');
  await expect(page.getByTestId('attempt-tab-a/6.1')).toBeVisible();
  await expect(page.getByTestId('attempt-tab-a/5.1')).toHaveCount(0);

  await older.click();
  await expect(older).toHaveCount(0);
  await page.getByTestId('attempt-tab-a/1.1').click();
  await expect(page.getByTestId('attempt-detail')).toHaveAttribute('data-attempt', 'a/1.1');
  await expect(page.getByTestId('attempt-output')).toContainText('1007');
  await page.getByTestId('attempt-tab-a/5.1').click();
  await expect(page.getByTestId('attempt-output')).toContainText('5007');
});
