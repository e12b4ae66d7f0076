// A revalidate check that reads again first (`revalidate.fetch`, docs/long-running.md) in Debian's
// chromium against the real `weft serve`: two approvals wait when the engine of `weft serve`
// starts, so each re-checks as the person answers (trigger "restart") and first reads the
// supplier's price again from a real server on 127.0.0.1. The laptop's price holds: fresh, and
// the panel shows the request, its status, time and answer. The desk's supplier is down: the read
// fails with http_503, the approval is stale, and the panel says why. Both themes are shot, and
// axe finds no serious or critical violation in the panel in either.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, listenLoopback, REPO_ROOT, setTheme, shootBothThemes, startServe, weft, type Loopback, type Served, type Workspace, openRunStep } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let supplier: Loopback;
const runs = { laptop: '', desk: '' };
/** The desk's quote answers once; after that its supplier is down. */
let deskGets = 0;

async function cli(args: string[], code: number): Promise<string> {
  const r = await weft(ws, args);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(code);
  return r.stdout;
}

const started = async (item: string): Promise<string> =>
  (JSON.parse(await cli(['run', 'quote-reread.weft.json', '--input', JSON.stringify({ apiBase: supplier.url, item }), '--json'], 3)) as { runId: string }).runId;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  supplier = await listenLoopback((req, res) => {
    const down = req.url === '/quotes/desk' && ++deskGets > 1;
    res.writeHead(down ? 503 : req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(down ? { error: 'unavailable', message: 'the supplier is down for maintenance' } : req.method === 'POST' ? { orderId: 'O-1' } : { price: req.url === '/quotes/desk' ? 340 : 1200, currency: 'EUR' }));
  });
  writeFileSync(join(ws.dir, 'quote-reread.weft.json'), readFileSync(join(REPO_ROOT, 'test/fixtures/scenarios/quote-reread.weft.json'), 'utf8').replace('"$schema": "../../../docs/weft-v1.schema.json",', ''));
  runs.laptop = await started('laptop');
  runs.desk = await started('desk');
  served = await startServe(ws);
  await cli(['approve', runs.laptop, 'approve', '--by', 'ann'], 0);
  // Stale (the read failed): back to the quote, which fails too while the supplier is down.
  await cli(['approve', runs.desk, 'approve', '--by', 'ann'], 1);
});

test.afterAll(async () => {
  await served?.stop();
  await supplier?.close();
  ws?.remove();
});

/** axe's serious and critical findings in the Revalidation panel, in both themes. */
async function panelViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    const result = await new AxeBuilder({ page }).include('[data-testid="step-revalidation"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  return found;
}

test('an approval after a restart reads the price again: it holds, and the panel shows the read', async ({ page }) => {
  await openRunStep(page, served, runs.laptop, 'approve');
  const panel = page.getByTestId('step-revalidation');
  await expect(panel).toHaveAttribute('data-verdict', 'fresh');
  await expect(panel).toHaveAttribute('data-trigger', 'restart');
  const fetched = page.getByTestId('revalidation-fetched');
  await expect(fetched).toHaveAttribute('data-ok', 'true');
  await expect(fetched).toContainText('GET {{ input.apiBase }}/quotes/{{ input.item }}');
  await expect(page.getByTestId('revalidation-fetched-result')).toContainText('answered 200');
  await expect(page.getByTestId('revalidation-fetched-output')).toContainText('"price": 1200');
  await expect(page.getByTestId('revalidation-check')).toHaveText('$fetched.body.price <= steps.quote.output.body.price');
  await expect(page.getByTestId('step-state-ordered')).toHaveText('succeeded');
  await panel.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'run-revalidation-fetch-fresh', { 'step head': page.locator('.rsd-head'), revalidation: panel });
  expect(await panelViolations(page)).toEqual([]);
});

test('an approval whose read fails is stale, and the panel says the read failed and why', async ({ page }) => {
  await openRunStep(page, served, runs.desk, 'approve');
  const panel = page.getByTestId('step-revalidation');
  await expect(panel).toHaveAttribute('data-verdict', 'stale');
  await expect(page.getByTestId('revalidation-fetched')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('revalidation-fetched-result')).toContainText('failed');
  await expect(page.getByTestId('revalidation-fetched-result')).toContainText('http_503');
  await expect(page.getByTestId('revalidation-fetched-output')).toHaveCount(0);
  await expect(page.getByTestId('revalidation-why')).toContainText('the http read the check runs first failed (http_503) after an engine restart');
  await panel.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'run-revalidation-fetch-failed', { 'step head': page.locator('.rsd-head'), revalidation: panel });
  expect(await panelViolations(page)).toEqual([]);
});
