// The run page draws a run of a workflow whose file has a layout once, from that layout: it does
// not first lay out the run's own definition (which carries no layout) in the layout worker and
// then draw the graph again when the file arrives. At 1,000 steps that first drawing was seconds
// of a busy machine's time (docs/bench-app.md); here, on an example, the worker is never asked for.
import { expect, test } from '@playwright/test';
import { exampleWorkspace, startServe, weft, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

test('a run of a laid-out workflow opens on the file’s layout, without the layout worker', async ({ page }) => {
  // research-review stops at its review task: a run the page shows whole, waiting.
  const started = await weft(ws, ['run', 'research-review.weft.json', '--json', '--input', JSON.stringify({ topic: 'durable workflow engines', audience: 'platform engineers' })]);
  const runId = (JSON.parse(started.stdout) as { runId: string }).runId;
  const workers: string[] = [];
  page.on('request', (r) => {
    if (/layout-worker/.test(r.url())) workers.push(r.url());
  });
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.goto(`${served.url}/#/run/${runId}`);
  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);
  // The timeline reads the log after the graph: by then a first layout would have asked for its worker.
  await expect(page.getByTestId('timeline-bar').first()).toBeVisible();
  expect(workers).toEqual([]);
});
