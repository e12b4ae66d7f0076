// Revalidation on resume in Debian's chromium against the real `weft serve` (docs/long-running.md):
// two runs wait for a person when `weft serve` starts, so the engine that resumes them re-checks
// what each decided on as the person answers (trigger "restart"). trip-saga's quote still holds:
// the traveller's confirmation is fresh and the trip is booked. A quote that ran out makes the
// approval stale: it goes back for a new quote and asks again. The step detail shows the evidence
// (verdict, trigger, the check, the values it read, why), the restart record marks the step, and
// the timeline has the check's marker; both themes are shot.
import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, REPO_ROOT, shootBothThemes, startFakeApi, startServe, weft, type FakeApi, type Served, type Workspace, openRunStep } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: FakeApi;
const runs = { trip: '', quote: '' };

async function cli(args: string[], code: number): Promise<string> {
  const r = await weft(ws, args);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(code);
  return r.stdout;
}

const started = async (file: string, input: unknown): Promise<string> => (JSON.parse(await cli(['run', file, '--input', JSON.stringify(input), '--json'], 3)) as { runId: string }).runId;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  api = await startFakeApi();
  // The engine's own fixture, its quote given by the run input instead of a supplier's API.
  const flow = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/scenarios/quote-approval.weft.json'), 'utf8')) as { steps: Record<string, unknown>[]; input: Record<string, unknown> };
  flow.input = { type: 'object', required: ['item', 'price', 'validUntil'], properties: { item: { type: 'string' }, price: { type: 'number' }, validUntil: { type: 'string' } } };
  for (const s of flow.steps) {
    if (s['id'] === 'quote') Object.assign(s, { kind: 'transform', config: { expression: '{ "status": 200, "body": { "price": input.price, "validUntil": input.validUntil } }' } });
    if (s['id'] === 'order') Object.assign(s, { kind: 'transform', config: { expression: '{ "status": 201, "body": { "item": input.item } }' } });
  }
  writeFileSync(join(ws.dir, 'quote-approval.weft.json'), JSON.stringify(flow, null, 2));
  // Both wait for a person when the engine of `weft serve` starts.
  runs.trip = await started('trip-saga.weft.json', {
    apiBase: api.url, tripId: 'T-RECHECK', traveller: { name: 'Ada Lovelace', email: 'ada@example.com' },
    flight: { from: 'LHR', to: 'LIS', date: '2026-05-14' }, hotel: { city: 'Lisbon', checkIn: '2026-05-14', checkOut: '2026-05-18' }, car: { pickUp: 'LIS', from: '2026-05-14', until: '2026-05-18' },
  });
  runs.quote = await started('quote-approval.weft.json', { item: 'laptop', price: 1200, validUntil: '2026-01-02T00:00:00Z' });
  served = await startServe(ws);
  await cli(['approve', runs.trip, 'traveller_confirms', '--by', 'ada'], 0);
  // Stale: back to the quote, and the approval asks again (no restart since: no check this time).
  await cli(['approve', runs.quote, 'approve', '--by', 'ann'], 3);
  await cli(['approve', runs.quote, 'approve', '--by', 'ann'], 0);
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

test('a confirmation after an engine restart re-checks the quote: still fresh, and the trip is booked', async ({ page }) => {
  await openRunStep(page, served, runs.trip, 'traveller_confirms');
  const panel = page.getByTestId('step-revalidation');
  await expect(panel).toHaveAttribute('data-verdict', 'fresh');
  await expect(panel).toHaveAttribute('data-trigger', 'restart');
  await expect(page.getByTestId('revalidation-verdict')).toHaveText('still fresh');
  await expect(page.getByTestId('revalidation-trigger')).toContainText('after an engine restart');
  await expect(page.getByTestId('revalidation-check')).toHaveText('$millis() <= $toMillis(steps.quote_trip.output.body.heldUntil)');
  await expect(page.getByTestId('revalidation-read')).toHaveAttribute('data-path', 'steps.quote_trip.output.body.heldUntil');
  await expect(page.getByTestId('revalidation-why')).toContainText('the check still holds after an engine restart');
  await expect(page.getByTestId('step-state-booked')).toHaveText('succeeded');
  await panel.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'run-revalidation-fresh', { 'step head': page.locator('.rsd-head'), revalidation: panel });
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-revalidation-traveller_confirms')).toHaveText('re-checked: fresh');
  await expect(page.locator('[data-testid="timeline-row"][data-step="traveller_confirms"]').locator('[data-kind="revalidated"]')).toHaveCount(1);
});

test('an approval after an engine restart whose quote ran out is stale: a new quote is asked for, and the evidence says why', async ({ page }) => {
  await openRunStep(page, served, runs.quote, 'approve');
  await expect(page.getByTestId('step-state-ordered')).toHaveText('succeeded');
  // The latest check is the first pass's: the second approval came with nothing to re-check.
  const panel = page.getByTestId('step-revalidation');
  await expect(panel).toHaveAttribute('data-verdict', 'stale');
  await expect(page.getByTestId('revalidation-verdict')).toHaveText('stale');
  await expect(page.getByTestId('revalidation-read')).toContainText('2026-01-02T00:00:00Z');
  await expect(page.getByTestId('revalidation-why')).toContainText('the check gave false, not true, after an engine restart');
  await page.getByTestId('attempt-tab-approve/1.1').click();
  await panel.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'run-revalidation-stale', { 'step head': page.locator('.rsd-head'), revalidation: panel });
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-revalidation-approve')).toHaveText('re-checked: stale');
});
