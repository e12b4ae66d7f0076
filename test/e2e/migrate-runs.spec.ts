// Migrating running instances from a workflow's History, in chromium on the real `weft serve`:
// two research-review v2 runs wait on a person; v3 (a `notify` step after the review) is saved;
// History says "2 runs on v2 are still running", Migrate… shows each run's plan (safe), and
// applying it moves both. Approved, each finishes on v3 with notify run, the run page's
// timeline marks where its version changed, and time travel shows v2 before it and v3 at it.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, REPO_ROOT, shootBothThemes, startServe, type Served, type Workspace } from './weft-serve.ts';

type Json = Record<string, unknown>;
let ws: Workspace;
let served: Served;
const runs: string[] = [];

async function api(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${served.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as Json;
}
const runOf = async (id: string): Promise<{ run: { state: string; version: number }; steps: { id: string; state: string }[] }> =>
  (await api('GET', `/api/runs/${id}`)) as unknown as { run: { state: string; version: number }; steps: { id: string; state: string }[] };

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
  for (const topic of ['durable workflows', 'idempotency keys']) runs.push(String((await api('POST', '/api/runs', { workflow: 'research-review', input: { topic } })).runId));
  for (const id of runs) await expect.poll(async () => (await runOf(id)).run.state).toBe('waiting');
  const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/research-review.weft.json'), 'utf8')) as Json & { steps: Json[]; edges: Json[] };
  const v3 = {
    ...example,
    version: 3,
    steps: [...example.steps, { id: 'notify', name: 'Notify the author', kind: 'transform', config: { expression: '{ "title": steps.draft.output.title }' } }],
    edges: [...example.edges.filter((e) => e.id !== 'review_approved'), { id: 'review_to_notify', from: 'review', to: 'notify', on: 'succeeded' }, { id: 'notify_approved', from: 'notify', to: 'approved' }],
  };
  await api('PUT', '/api/workflows/research-review', { definition: v3 });
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

test('migrates the waiting runs of research-review v2 to v3 from History, and they finish on v3', async ({ page }) => {
  await page.goto(served.address);
  await page.getByTestId('workflow-row-research-review').click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await page.getByTestId('tab-history').click();
  const group = page.getByTestId('migrate-from-2');
  await expect(group).toContainText('2 runs on v2 are still running.');
  await page.getByTestId('migrate-open-2').click();
  for (const id of runs) await expect(page.getByTestId(`migrate-run-${id}`)).toContainText('safe');
  await expect(page.getByTestId(`migrate-run-${runs[0]}`)).toContainText('new steps: notify');
  await shootBothThemes(page, 'migrate-runs-plan', { plan: page.getByTestId('migrate-plan-2') });

  await page.getByTestId('migrate-apply-2').click();
  await expect(page.getByTestId('migrate-done')).toHaveText('Migrated 2 of 2 runs from v2 to v3.');
  await expect(page.getByTestId('migrate-from-2')).toHaveCount(0);
  for (const id of runs) expect((await runOf(id)).run.version).toBe(3);

  for (const id of runs) {
    await api('POST', `/api/tasks/${id}/review`, { action: 'approve', by: 'ed' });
    await expect.poll(async () => (await runOf(id)).run.state).toBe('succeeded');
    expect((await runOf(id)).steps.find((s) => s.id === 'notify')?.state).toBe('succeeded');
  }

  await page.goto(`${served.url}/#/run/${runs[0]}`);
  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect(page.getByTestId('step-node-notify')).toBeVisible();
  const marker = page.locator('[data-testid="timeline-marker"][data-kind="migrated"]');
  await expect(marker).toHaveCount(1);
  await expect(marker).toHaveAttribute('aria-label', /^migrated from v2 to v3 by /);
  await expect(page.getByTestId('timeline-legend')).toContainText('version changed (migrated)');
  await shootBothThemes(page, 'migrate-runs-run-page', { 'notify node': page.getByTestId('step-node-notify'), marker });

  // Time travel: just before the migration the run is on v2; at it, on v3.
  const log = (await api('GET', `/api/runs/${runs[0]}/events?after=0&limit=1000`)) as { events: { seq: number; type: string }[] };
  const at = log.events.find((e) => e.type === 'run_migrated')?.seq ?? 0;
  expect(at).toBeGreaterThan(1);
  const header = page.getByRole('button', { name: /^research-review v\d+$/ });
  await page.getByTestId('tt-slider').fill(String(at - 1));
  await expect(page.getByTestId('tt-where')).toContainText(`as of event ${at - 1} of`);
  await expect(header).toHaveText('research-review v2');
  await page.getByTestId('tt-slider').fill(String(at));
  await expect(page.getByTestId('tt-where')).toContainText('run migrated');
  await expect(header).toHaveText('research-review v3');
  await shootBothThemes(page, 'migrate-runs-time-travel', { where: page.getByTestId('tt-where') });
});
