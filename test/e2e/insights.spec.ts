// The insights page in Debian's chromium against the real `weft serve`: runs of trip-saga (two
// booked, one compensated) and research-review (a person rejects, then approves) started from a
// terminal, then the page's figures checked against `weft stats --json` of the same store.
import { expect, test, type Page } from '@playwright/test';
import { formatDuration } from '../../renderer/core/format.ts';
import { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import { appChrome, exampleWorkspace, shootBothThemes, startServe, weft, type Served, type Workspace, startFakeApi, type FakeApi } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: FakeApi;

const trip = (id: string, carUntil: string) => ({
  apiBase: api.url,
  tripId: id,
  traveller: { name: 'Ada Lovelace', email: 'ada@example.com' },
  flight: { from: 'LHR', to: 'LIS', date: '2026-05-14' },
  hotel: { city: 'Lisbon', checkIn: '2026-05-14', checkOut: '2026-05-18' },
  car: { pickUp: 'LIS', from: '2026-05-14', until: carUntil },
});

async function cli(args: string[], code: number): Promise<string> {
  const r = await weft(ws, args);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(code);
  return r.stdout;
}

async function report(workflow: string): Promise<WorkflowReport> {
  return WorkflowReport.parse(JSON.parse(await cli(['stats', workflow, '--json'], 0)));
}

const pct = (r: number | null): string => (r === null ? '–' : `${Math.round(r * 1000) / 10}%`);

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
  api = await startFakeApi();
  // A trip waits for the traveller to confirm its price; they confirm it at once.
  const booked = async (id: string): Promise<void> => {
    const { runId: tripRun } = JSON.parse(await cli(['run', 'trip-saga.weft.json', '--input', JSON.stringify(trip(id, '2026-05-18')), '--json'], 3)) as { runId: string };
    await cli(['approve', tripRun, 'traveller_confirms'], 0);
  };
  await booked('T-1');
  await cli(['run', 'trip-saga.weft.json', '--input', JSON.stringify(trip('T-2', '2026-05-10'))], 1);
  await booked('T-3');
  await booked('T-4');
  const { runId } = JSON.parse(await cli(['run', 'research-review.weft.json', '--input', '{"topic":"durable workflows"}', '--json'], 3)) as { runId: string };
  await cli(['reject', runId, 'review', '--reason', 'cite the sources'], 3);
  await cli(['approve', runId, 'rereview'], 0);
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

/** The insights page whole (it scrolls inside the app's content area: a tall window shows all of it), with what it must show. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1620 });
  await page.mouse.move(1, 1);
  await expect(page.locator('.recharts-line').first()).toBeVisible();
  await shootBothThemes(page, name, {
    ...appChrome(page),
    ...Object.fromEntries(['runs', 'success', 'p50', 'p95', 'retry', 'compensation', 'intervention'].map((f) => [f, page.getByTestId(`insights-${f}`)])),
    'rates over time': page.getByTestId('insights-rates'),
    graph: page.getByTestId('insights-graph'),
    'time split': page.getByTestId('insights-split'),
  });
}

test('the insights of trip-saga show the figures of weft stats', async ({ page }) => {
  const r = await report('trip-saga');
  expect(r.stats.runs).toBe(4);
  await page.goto(served.address);
  await page.getByTestId('workflow-insights-trip-saga').click();
  await expect(page).toHaveURL(/#\/insights\/trip-saga$/);
  const insights = page.getByTestId('insights');
  await expect(insights.getByTestId('insights-runs')).toHaveText(String(r.stats.runs));
  await expect(insights.getByTestId('insights-success')).toHaveText(pct(r.stats.successRate));
  await expect(insights.getByTestId('insights-p50')).toHaveText(formatDuration(r.stats.durationMs?.p50 ?? NaN));
  await expect(insights.getByTestId('insights-p95')).toHaveText(formatDuration(r.stats.durationMs?.p95 ?? NaN));
  await expect(insights.getByTestId('insights-retry')).toHaveText(pct(r.stats.retryRate));
  await expect(insights.getByTestId('insights-compensation')).toHaveText(pct(r.stats.compensationRate));
  await expect(insights.getByTestId('insights-intervention')).toHaveText(pct(r.stats.humanInterventionRate));

  // Rates over time: four lines (success, retried, compensated, a person acted).
  await expect(page.getByTestId('insights-rates').locator('.recharts-line')).toHaveCount(4);

  // The graph: each edge's frequency on it, each step's p50 and p95 on its node.
  const graph = page.getByTestId('insights-graph');
  for (const [id, e] of Object.entries(r.stats.edges)) {
    await expect(graph.getByTestId(`edge-share-${id}`)).toHaveText(e.frequency === null ? '–' : `${Math.round(e.frequency * 100)}%`);
  }
  for (const [id, s] of Object.entries(r.stats.steps)) {
    const node = graph.getByTestId(`step-stats-${id}`);
    await expect(node).toContainText(`p50 ${s.latencyMs === null ? '–' : formatDuration(s.latencyMs.p50)}`);
    await expect(node).toContainText(`p95 ${s.latencyMs === null ? '–' : formatDuration(s.latencyMs.p95)}`);
    await expect(node).toContainText(`${s.runs}/${r.stats.runs}`);
  }
  // Every edge carries the share of runs that took it; a band under each one some run took.
  const taken = Object.keys(r.stats.edges).filter((id) => r.runs.some((x) => (x.edges[id]?.taken ?? 0) > 0));
  await expect(graph.locator('.edge-traffic')).toHaveCount(taken.length);
  await expect(graph.locator('.outcome-edge[data-share="1.00"]')).toHaveCount(Object.keys(r.stats.edges).filter((id) => r.runs.every((x) => (x.edges[id]?.taken ?? 0) > 0)).length);
  await expect(graph.locator('.outcome-edge[data-share="0.00"]')).toHaveCount(Object.keys(r.stats.edges).length - taken.length);

  // Each run's time split, newest first, with its duration.
  const split = page.getByTestId('insights-split');
  await expect(split.locator('.split-row')).toHaveCount(4);
  const newest = [...r.runs].reverse();
  for (const [i, run] of newest.entries()) {
    await expect(split.locator('.split-row').nth(i)).toHaveAttribute('data-testid', `split-run-${run.runId}`);
    await expect(split.getByTestId(`split-duration-${run.runId}`)).toHaveText(formatDuration(run.durationMs));
  }
  await shoot(page, 'insights');

  // A run's bar opens the run.
  const compensated = r.runs.find((x) => x.compensations > 0);
  expect(compensated).toBeDefined();
  await page.getByTestId(`split-run-${compensated?.runId ?? ''}`).click();
  await expect(page).toHaveURL(new RegExp(`#/run/${compensated?.runId ?? ''}$`));
  await expect(page.getByTestId('run-state')).toHaveText('failed');
});

test('with only the newest run listed (?runs=1), the page still shows the figures of every run', async ({ page }) => {
  const r = await report('trip-saga');
  // The page asks with the server's default; here the answer lists one run and leaves three out.
  await page.route('**/api/stats/trip-saga*', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('runs', '1');
    void route.continue({ url: url.toString() });
  });
  const answered = page.waitForResponse((res) => res.url().includes('/api/stats/trip-saga'));
  await page.goto(served.address);
  await page.goto(`${served.url}/#/insights/trip-saga`);
  const answer = WorkflowReport.parse(await (await answered).json());
  expect(answer.runs).toHaveLength(1);
  expect(answer.runsOmitted).toBe(3);
  expect(answer.stats).toEqual(r.stats);
  await expect(page.getByTestId('insights-runs')).toHaveText('4');
  await expect(page.getByTestId('insights-rates').locator('.recharts-line')).toHaveCount(4);
  // The bands under the edges are the shares of all four runs, from the server's counts.
  const graph = page.getByTestId('insights-graph');
  const taken = Object.keys(r.stats.edges).filter((id) => r.runs.some((x) => (x.edges[id]?.taken ?? 0) > 0));
  await expect(graph.locator('.edge-traffic')).toHaveCount(taken.length);
  await expect(graph.locator('.outcome-edge[data-share="1.00"]')).toHaveCount(Object.keys(r.stats.edges).filter((id) => r.runs.every((x) => (x.edges[id]?.taken ?? 0) > 0)).length);
  for (const [id, s] of Object.entries(r.stats.steps)) await expect(graph.getByTestId(`step-stats-${id}`)).toContainText(`${s.runs}/${r.stats.runs}`);
  // The time split lists the one run it has, of four.
  const split = page.getByTestId('insights-split');
  await expect(split.locator('.split-row')).toHaveCount(1);
  await expect(split.locator('.split-row').first()).toHaveAttribute('data-testid', `split-run-${r.runs.at(-1)?.runId ?? ''}`);
  await expect(split).toContainText('newest 1 of 4');
});

test('a person’s acts show in the intervention rate of research-review', async ({ page }) => {
  const r = await report('research-review');
  await page.goto(served.address);
  await page.goto(`${served.url}/#/insights/research-review`);
  await expect(page.getByTestId('insights-intervention')).toHaveText(pct(r.stats.humanInterventionRate));
  await expect(page.getByTestId('insights-intervention')).toHaveText('100%');
  const rejected = r.stats.edges['review_rejected'];
  await expect(page.getByTestId('edge-share-review_rejected')).toHaveText(`${Math.round((rejected?.frequency ?? NaN) * 100)}%`);
  // Waiting for the reviewer is waiting time: the bar has a waiting part.
  await expect(page.locator(`[data-testid="split-run-${r.runs[0]?.runId ?? ''}"] .split-seg[data-part="waiting"]`)).toBeVisible();
});

test('a workflow that has never run shows the empty state', async ({ page }) => {
  await page.goto(served.address);
  await page.goto(`${served.url}/#/insights/parallel-research`);
  await expect(page.getByTestId('insights-empty')).toContainText('No runs of parallel-research yet');
  await expect(page.getByTestId('insights-rates')).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 700 });
  await shootBothThemes(page, 'insights-empty', { ...appChrome(page), 'empty state': page.getByTestId('insights-empty') });
});
