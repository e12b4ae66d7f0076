// A run's cost per step on the run page (issue 23, docs/cost.md), in Debian's chromium against the
// real `weft serve`: mock agents whose replies carry token usage, priced by the served workspace's
// weft.prices.json, a step with a declared cost per call, and a model the table has no price for.
// The total sits in the run's head (which stays on one line), each step's cost in the restart
// record, the step detail (per attempt too), the Run tab's table and the timeline's rows.
import { expect, test, type Page } from '@playwright/test';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, REPO_ROOT, shootBothThemes, startServe, weft, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let page: Page;
let runId: string;

const PRICES = {
  format: 'weft-prices/v1',
  currency: 'USD',
  prices: [
    { provider: 'mock', model: 'mock-large', from: '2026-01-01', inputPerMillion: 2.5, outputPerMillion: 10 },
    { provider: 'mock', model: 'mock-small', from: '2026-01-01', inputPerMillion: 0.15, outputPerMillion: 0.6 },
  ],
};

test.beforeAll(async ({ browser }) => {
  ws = exampleWorkspace();
  copyFileSync(join(REPO_ROOT, 'test/e2e/fixtures/priced-brief.weft.json'), join(ws.dir, 'priced-brief.weft.json'));
  writeFileSync(join(ws.dir, 'weft.prices.json'), JSON.stringify(PRICES, null, 2));
  served = await startServe(ws);
  const r = await weft(ws, ['run', 'priced-brief.weft.json', '--json']);
  expect(r.stderr).toBe('');
  runId = (JSON.parse(r.stdout) as { runId: string; state: string }).runId;
  // 1600 px wide: at 1440 the head of a finished run is at its limit without any cost in it (a
  // "took 122ms" wraps Compare… where "took 43ms" does not), which says nothing about the cost.
  page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  ws?.remove();
});

test("a run's cost per step on the run page", async () => {
  await page.goto(`${served.url}/#token=${served.token}`);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await expect(page.getByTestId('run-view')).toBeVisible();

  // The total beside the run panel's tabs: research 12,000 × 2.5 + 1,800 × 10 per million
  // ($0.048), draft's two attempts ($0.001245), lookup's declared $0.004; polish's model has no
  // price (marked *).
  const chip = page.getByTestId('run-cost');
  await expect(chip).toHaveText(/^run cost\$0\.053\*$/);
  await expect(chip).toHaveAttribute('title', /16,400 input tokens, 2,970 output tokens; 1 attempt had no price/);
  // The cost is not in the run's head, which stays on one line: its last item, Compare…, is on the run id's line.
  await expect(page.locator('.run-head').getByTestId('run-cost')).toHaveCount(0);
  const middle = async (selector: string): Promise<number> => {
    const box = await page.locator(selector).first().boundingBox();
    return (box?.y ?? 0) + (box?.height ?? 0) / 2;
  };
  expect(Math.abs((await middle('.run-head > .menu-anchor')) - (await middle('.run-id')))).toBeLessThan(4);

  // Each step's cost in the restart record.
  await expect(page.getByTestId('record-cost-research')).toHaveText('$0.048');
  await expect(page.getByTestId('record-cost-draft')).toHaveText('$0.0012');
  await expect(page.getByTestId('record-cost-lookup')).toHaveText('$0.004');
  await expect(page.getByTestId('record-cost-polish')).toHaveText('not priced');
  await expect(page.getByTestId('record-cost-done')).toHaveCount(0);

  // On the timeline: each activation's total beside its label.
  const rowCost = (step: string) => page.locator(`.tl-row[data-step="${step}"]`).getByTestId('timeline-row-cost');
  await expect(rowCost('research')).toHaveText('$0.048');
  await expect(rowCost('lookup')).toHaveText('$0.004');
  await expect(page.locator('.tl-row[data-step="research"] [data-testid="timeline-bar"][data-kind="running"]')).toHaveAttribute('aria-label', /cost \$0\.048/);
  await shootBothThemes(page, 'run-cost-record', { ...appChrome(page), 'the run cost': chip, 'the head': page.locator('.run-head'), 'research cost': page.getByTestId('record-cost-research'), 'timeline research cost': rowCost('research') });

  // The step detail: the step's total and tokens, each attempt's cost and how it was fixed.
  await page.getByTestId('record-step-draft').click();
  const stepCost = page.getByTestId('step-cost');
  await expect(stepCost).toContainText('$0.0012');
  await expect(stepCost).toContainText('4,100 / 1,050 tokens · 2 attempts');
  await expect(page.getByTestId('attempt-tab-draft/1.1')).toHaveText('#1 · $0.00054');
  await expect(page.getByTestId('attempt-tab-draft/1.2')).toContainText('#2 · $0.0007');
  await expect(page.getByTestId('attempt-cost')).toContainText('its tokens at the price table’s prices');
  await page.getByTestId('attempt-tab-draft/1.1').click();
  await expect(page.getByTestId('attempt-cost')).toHaveText(/^\$0\.00054 /);
  await shootBothThemes(page, 'run-cost-step', { 'step cost': stepCost, 'attempt cost': page.getByTestId('attempt-cost'), 'first attempt': page.getByTestId('attempt-tab-draft/1.1') });

  await page.getByTestId('run-tab-record').click();
  await page.getByTestId('record-step-lookup').click();
  await expect(page.getByTestId('attempt-cost')).toContainText('the step’s declared cost per call');

  // The Run tab (the chip opens it): a table of what each step cost, the total, and the note on what had no price.
  await chip.click();
  await expect(page.getByTestId('run-tab-run')).toHaveAttribute('aria-selected', 'true');
  const section = page.getByTestId('run-cost-section');
  await expect(section.getByTestId('cost-row-research')).toContainText('12,000 / 1,800');
  await expect(section.getByTestId('cost-row-polish')).toContainText('not priced');
  await expect(section.getByTestId('run-cost-total')).toHaveText('$0.053');
  await expect(page.getByTestId('run-cost-unpriced')).toContainText('1 attempt had no price');
  await shootBothThemes(page, 'run-cost-table', { 'cost table': section });
});
