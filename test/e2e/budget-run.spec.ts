// A run stopped by its budget on the run page, in Debian's chromium against the real `weft serve`:
// `weft run --budget 0` (forwarded to the server that owns the store) stops the billed step before
// its request, which settles budget_exceeded; the run page shows the step failed, the edge that
// follows budget_exceeded taken, in the colour of attention, and the cheaper path it led to.
import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, openRunFromList, type Served, shootBothThemes, startServe, weft, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'budgeted.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'budgeted', version: 1, name: 'Budgeted summary',
    steps: [
      { id: 'polish', kind: 'http', config: { method: 'POST', url: 'http://127.0.0.1:9/polish' }, output: { type: 'object', properties: { text: { type: 'string' } } } },
      { id: 'plain', kind: 'transform', config: { expression: '{"text": "plain summary"}' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'polished', from: 'polish', to: 'done' },
      { id: 'too_dear', from: 'polish', to: 'plain', on: 'budget_exceeded' },
      { id: 'plained', from: 'plain', to: 'done' },
    ],
  }, null, 2));
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});


test('a step stopped by the run budget settles budget_exceeded and its edge leads to the cheaper path', async ({ page }) => {
  const r = await weft(ws, ['run', 'budgeted.weft.json', '--budget', '0', '--json']);
  expect(r.stderr).toBe('');
  const { runId, state } = JSON.parse(r.stdout) as { runId: string; state: string };
  expect(state).toBe('succeeded');
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('step-state-polish')).toHaveText(/^failed$/);
  await expect(page.getByTestId('step-state-plain')).toHaveText(/^succeeded$/);
  const label = page.getByTestId('edge-label-too_dear');
  await expect(label).toContainText('budget exceeded');
  await expect(label.locator('.edge-outcome[data-outcome="budget_exceeded"]')).toBeVisible();
  await shootBothThemes(page, 'budget-exceeded-run', { graph: page.getByTestId('step-node-polish'), label });
});
