// "Billed again" in the app (docs/runs.md), in Debian's chromium against the real `weft serve`:
// a run whose agent steps recorded token costs (priced by the workspace's weft.prices.json, from
// the mock provider's usage) and whose paid step declares a cost per call fails at that step; the
// retry confirmation and the revise dialog say which steps will be billed again and about how
// much, from the costs the run recorded (read back from the API, never assumed here), and a
// confirmed retry bills one more call. The insights page then shows what the runs cost, as
// GET /api/stats (weft stats) says. Every wait is for a state, never for time.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { formatCost } from '../../shared/cost/run-cost.ts';
import { exampleWorkspace, openRunFromList, type Served, shootBothThemes, startServe, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

const mockAgent = (prompt: string, output: unknown, usage: { inputTokens: number; outputTokens: number }) => ({
  provider: 'mock',
  model: 'mock-large',
  prompt,
  mock: { replies: [{ output, usage }] },
});

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'weft.prices.json'), JSON.stringify({
    format: 'weft-prices/v1',
    currency: 'USD',
    prices: [{ provider: 'mock', model: 'mock-large', from: '2026-01-01', inputPerMillion: 0.5, outputPerMillion: 1.5 }],
  }));
  writeFileSync(join(ws.dir, 'billed-brief.weft.json'), JSON.stringify({
    format: 'weft/v1',
    id: 'billed-brief',
    version: 1,
    name: 'Billed brief',
    input: { type: 'object', properties: { topic: { type: 'string', minLength: 3 }, refuse: { type: 'boolean' } }, required: ['topic'] },
    steps: [
      { id: 'draft', kind: 'agent', config: mockAgent('Draft a brief on the topic.', { text: 'a brief' }, { inputTokens: 24_000, outputTokens: 6_000 }) },
      { id: 'summarize', kind: 'agent', input: 'steps.draft.output', config: mockAgent('Summarize the brief.', { text: 'short' }, { inputTokens: 8_000, outputTokens: 1_000 }) },
      // A paid API that bills each call, and refuses those of a run whose input says so.
      {
        id: 'publish',
        kind: 'command',
        cost: { perCall: 0.002 },
        retry: { maxAttempts: 1 },
        input: 'input',
        config: { argv: ['sh', '-c', 'read l; case "$l" in *\'"refuse":true\'*) echo "quota exceeded" >&2; exit 3;; esac; echo \'{"published": true}\''] },
      },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'drafted', from: 'draft', to: 'summarize' },
      { id: 'summarized', from: 'summarize', to: 'publish' },
      { id: 'published', from: 'publish', to: 'done' },
    ],
  }, null, 2));
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

interface Costed {
  run: { state: string };
  steps: { id: string; attempts: { meta: { cost?: { amount: number; currency: string; basis: string } } | null }[] }[];
}

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${served.url}${path}`, { ...init, headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' } });
  expect(response.ok, await response.clone().text()).toBe(true);
  return (await response.json()) as T;
}

/** What the step's latest attempt recorded as its cost, as the API shows it. */
async function lastCost(runId: string, stepId: string): Promise<{ amount: number; basis: string } | undefined> {
  const detail = await api<Costed>(`/api/runs/${runId}`);
  return detail.steps.find((s) => s.id === stepId)?.attempts.at(-1)?.meta?.cost;
}


test('the re-billing warning in the revise dialog and in the retry confirmation, from the costs the run recorded', async ({ page }) => {
  const { runId } = await api<{ runId: string }>('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'billed-brief', input: { topic: 'durable execution', refuse: true } }) });
  await expect.poll(async () => (await api<Costed>(`/api/runs/${runId}`)).run.state).toBe('failed');
  // The engine recorded each attempt's cost: tokens priced by the table, the paid call as declared.
  const draft = await lastCost(runId, 'draft');
  const summarize = await lastCost(runId, 'summarize');
  const publish = await lastCost(runId, 'publish');
  expect([draft?.basis, summarize?.basis, publish?.basis]).toEqual(['tokens', 'tokens', 'declared']);
  const usd = (x: { amount: number } | undefined): string => formatCost(x?.amount ?? NaN, 'USD');

  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('run-state')).toHaveText('failed');
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'publish');

  // Retry: the dialog says what the retry bills again, and the confirmation repeats it.
  await page.getByTestId('action-retry').click();
  const retry = page.getByTestId('dialog-retry');
  const retryWarning = retry.getByTestId('rebill-warning');
  await expect(retryWarning).toContainText('These steps will be billed again');
  await expect(retry.getByTestId('rebill-publish')).toContainText(`${usd(publish)}, last attempt`);
  await expect(retry.getByTestId('rebill-total')).toHaveText(`about ${usd(publish)}`);
  // The agents before publish keep their evidence: a retry of publish does not bill them.
  await expect(retry.getByTestId('rebill-draft')).toHaveCount(0);
  await retry.getByTestId('action-reason').fill('the quota was raised');
  await retry.getByTestId('submit-action').click();
  await expect(retry.getByTestId('confirm-panel')).toHaveText(`These steps will be billed again: publish (${usd(publish)}, last attempt), about ${usd(publish)}.`);
  await shootBothThemes(page, 'rebill-retry-confirm', {
    dialog: retry,
    warning: retryWarning,
    confirmation: retry.getByTestId('confirm-panel'),
    confirm: retry.getByTestId('confirm-action'),
  });
  const attempts = async (): Promise<number> => (await api<Costed>(`/api/runs/${runId}`)).steps.find((s) => s.id === 'publish')?.attempts.length ?? 0;
  expect(await attempts()).toBe(1);
  await retry.getByTestId('confirm-action').click();
  await expect(retry).toHaveCount(0);
  // The retried call ran and was billed as the estimate said.
  await expect.poll(attempts).toBe(2);
  await expect.poll(async () => (await lastCost(runId, 'publish'))?.amount).toBe(publish?.amount);
  await expect(page.getByTestId('run-state')).toHaveText('failed');

  // Revise: the plan runs draft again (its input changed) and the steps after it if reached.
  await page.getByTestId('action-revise').click();
  const revise = page.getByTestId('dialog-revise');
  await revise.getByTestId('field-topic').fill('durable execution for agents');
  await revise.getByTestId('revise-preview').click();
  await expect(revise.getByTestId('plan-draft')).toContainText('rerun');
  const warning = revise.getByTestId('rebill-warning');
  await expect(warning).toContainText('These steps will be billed again');
  await expect(revise.getByTestId('rebill-draft')).toContainText(`${usd(draft)}, last attempt`);
  await expect(revise.getByTestId('rebill-summarize')).toContainText(`if reached, ${usd(summarize)}, last attempt`);
  await expect(revise.getByTestId('rebill-publish')).toContainText(`if reached, ${usd(publish)}, last attempt`);
  const upTo = formatCost(Math.round(((draft?.amount ?? 0) + (summarize?.amount ?? 0) + (publish?.amount ?? 0)) * 1e6) / 1e6, 'USD');
  await expect(revise.getByTestId('rebill-total')).toHaveText(`about ${usd(draft)}, up to ${upTo} if every step is reached`);
  await expect(revise.getByTestId('plan-cost-draft')).toHaveText(usd(draft));
  await shootBothThemes(page, 'rebill-revise-dialog', {
    dialog: revise,
    topic: revise.getByTestId('field-topic'),
    warning,
    "draft's plan": revise.getByTestId('plan-draft'),
    "draft's cost": revise.getByTestId('plan-cost-draft'),
  });
  // The CLI's plan says the same (weft revise --dry-run --json, through the same route).
  const plan = await api<{ rebill: { total: number; upTo: number } }>(`/api/runs/${runId}/actions`, { method: 'POST', body: JSON.stringify({ action: 'revise', input: { topic: 'durable execution for agents' }, dryRun: true }) });
  expect(plan.rebill.total).toBe(draft?.amount);
  await revise.getByTestId('submit-action').click();
  await expect(revise.getByTestId('confirm-panel')).toContainText(`These steps will be billed again: draft (${usd(draft)}, last attempt)`);
  await revise.getByRole('button', { name: 'Back' }).click();
  await revise.getByRole('button', { name: 'Cancel' }).click();
  await expect(revise).toHaveCount(0);
});

test('the insights page shows what the runs cost: per successful run, per UTC day, the most expensive steps, as weft stats says', async ({ page }) => {
  for (const topic of ['sagas', 'outbox pattern']) {
    const { runId } = await api<{ runId: string }>('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'billed-brief', input: { topic } }) });
    await expect.poll(async () => (await api<Costed>(`/api/runs/${runId}`)).run.state).toBe('succeeded');
  }
  const { stats } = await api<{ stats: { cost: { total: number; perSuccessfulRun: number; perSuccess: number; currency: string; steps: { stepId: string; total: number }[]; days: { day: string; total: number }[] } } }>('/api/stats/billed-brief');
  const money = (x: number): string => formatCost(x, stats.cost.currency);
  expect(stats.cost.steps.map((s) => s.stepId)).toEqual(['draft', 'summarize', 'publish']);
  await page.goto(served.address);
  await page.goto(`${served.url}/#/insights/billed-brief`);
  const card = page.getByTestId('insights-cost');
  await expect(card.getByTestId('insights-cost-total')).toHaveText(money(stats.cost.total));
  await expect(card.getByTestId('insights-cost-per-success')).toHaveText(money(stats.cost.perSuccessfulRun));
  await expect(card.getByTestId('insights-cost-per-success-all')).toHaveText(money(stats.cost.perSuccess));
  for (const s of stats.cost.steps) await expect(card.getByTestId(`insights-cost-step-total-${s.stepId}`)).toHaveText(money(s.total));
  // The ranking is the report's: the most expensive step first.
  await expect(card.locator('tbody tr').first()).toHaveAttribute('data-testid', 'insights-cost-step-draft');
  await expect(card.locator('.recharts-bar-rectangle')).toHaveCount(stats.cost.days.length);
  await card.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'insights-cost', {
    'cost card': card,
    total: card.getByTestId('insights-cost-total'),
    'per successful run': card.getByTestId('insights-cost-per-success'),
    "draft's row": card.getByTestId('insights-cost-step-draft'),
  });
});
