// Runs in the app, in Debian's chromium against the real `weft serve` and the fake API: a task
// rejected from the run page and its reason in the next draft's input, a debug run's breakpoint
// (continue, then step) and pinned output, two runs compared, and a failed run's cause reached
// from the runs list in a counted number of clicks; with screenshots in both themes.
import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, type FakeApi, openRunFromList, type Served, shootBothThemes, startFakeApi, startServe, weft, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: FakeApi;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
  api = await startFakeApi();
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

const REVIEW_INPUT = { topic: 'durable workflow engines', audience: 'platform engineers' };

async function start(args: string[]): Promise<string> {
  const r = await weft(ws, ['run', ...args, '--json']);
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { runId: string }).runId;
}


test('a task rejected with a reason on the run page: the reason reaches the next draft’s input in the step detail', async ({ page }) => {
  const runId = await start(['research-review.weft.json', '--input', JSON.stringify(REVIEW_INPUT)]);
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);
  await page.getByTestId('step-node-review').click();
  await page.getByTestId('action-reject').click();
  await page.getByTestId('action-reason').fill('Explain what happens to idempotency keys on retry');
  await page.getByTestId('submit-action').click();
  await expect(page.getByTestId('step-state-rereview')).toHaveText(/waiting/);
  await page.getByTestId('step-node-redraft').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'redraft');
  await expect(page.getByTestId('attempt-input')).toContainText('Explain what happens to idempotency keys on retry');
  // The provenance of the reason: the feedback step's attempt, one click away.
  await expect(page.getByTestId('provenance')).toContainText('steps.feedback.output');
  // The detail is taller than the window: the picture is of the provenance, scrolled into view.
  await page.getByTestId('provenance').scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'run-step-detail', {
    ...appChrome(page),
    'run state': page.getByTestId('run-state'),
    'redraft on the graph': page.getByTestId('step-node-redraft'),
    provenance: page.getByTestId('provenance'),
    'link to the feedback': page.getByTestId('provenance-link-feedback').first(),
  });
  await page.getByTestId('provenance-link-feedback').first().click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'feedback');
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('restart-record')).toContainText('rereview');
  // The record is taller than the window: the picture shows it at rereview, the step still to come.
  const rereview = page.getByTestId('record-step-rereview');
  await rereview.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'run-restart-record', { ...appChrome(page), 'run state': page.getByTestId('run-state'), 'rereview in the record': rereview });
});

test('a breakpoint pauses a debug run before its step; continue, then step', async ({ page }) => {
  const runId = await start(['research-review.weft.json', '--input', JSON.stringify(REVIEW_INPUT), '--break', 'research', '--break', 'review']);
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('run-debug')).toContainText('paused before research');
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  await page.getByTestId('action-continue').click();
  // Research runs, draft follows, and the run pauses again before review.
  await expect(page.getByTestId('run-debug')).toContainText('paused before review');
  await expect(page.getByTestId('step-state-draft')).toHaveText(/succeeded/);
  await page.getByTestId('action-step').click();
  // Step passes review's breakpoint: the review opens its task and the run waits for a person.
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);
  await expect(page.getByTestId('run-state')).toHaveText('waiting');
  await page.getByTestId('nav-runs').click();
  await expect(page.getByTestId(`debug-${runId}`)).toBeVisible();
  await page.getByTestId('nav-tasks').click();
  await expect(page.getByTestId(`task-debug-${runId}`)).toBeVisible();
});

test('a pinned agent output settles the step without calling the agent', async ({ page }) => {
  const pin = join(ws.dir, 'research-pin.json');
  // research gives a handoff (docs/long-running.md): a pinned output holds one like a real one.
  writeFileSync(pin, JSON.stringify({ summary: 'Pinned while debugging.', sources: [{ title: 'A pinned source', url: 'https://example.org/pinned' }], handoff: { completed: 'pinned research', next: 'draft from the pinned summary' } }));
  const runId = await start(['research-review.weft.json', '--input', JSON.stringify(REVIEW_INPUT), '--pin', `research=@${pin}`]);
  await openRunFromList(page, served, runId);
  await page.getByTestId('step-node-research').click();
  await expect(page.getByTestId('attempt-pinned')).toBeVisible();
  await expect(page.getByTestId('attempt-output')).toContainText('Pinned while debugging.');
  // No provider was asked: the attempt has no provider, model or tokens.
  await expect(page.getByTestId('attempt-detail')).not.toContainText('provider');
  const events = await weft(ws, ['events', runId]);
  expect(events.stdout).toContain('[pinned]');
});

test('two runs that took different branches: the compare view names the first difference', async ({ page }) => {
  const approved = await start(['research-review.weft.json', '--input', JSON.stringify(REVIEW_INPUT)]);
  expect((await weft(ws, ['approve', approved, 'review'])).stderr).toBe('');
  const rejected = await start(['research-review.weft.json', '--input', JSON.stringify(REVIEW_INPUT)]);
  expect((await weft(ws, ['reject', rejected, 'review', '--reason', 'Too long'])).stderr).toBe('');
  await openRunFromList(page, served, approved);
  await page.getByTestId('compare-button').click();
  await page.locator(`[data-testid="compare-pick"][data-run="${rejected}"]`).click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('first-difference')).toHaveAttribute('data-step', 'review');
  await shootBothThemes(page, 'run-compare', { ...appChrome(page), compare: page.getByTestId('compare-view'), 'first difference': page.getByTestId('first-difference') });
});

test('a failed run’s cause is reached from the runs list in at most three clicks', async ({ page }) => {
  // A stale base revision: the records API refuses the write with 412, and the run fails.
  const input = { apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 1, recipient: 'R2' };
  const r = await weft(ws, ['run', 'record-update.weft.json', '--input', JSON.stringify(input), '--json']);
  const { runId, state } = JSON.parse(r.stdout) as { runId: string; state: string };
  expect(state).toBe('failed');
  await page.goto(served.address);
  let clicks = 0;
  await page.getByTestId('nav-runs').click();
  clicks++;
  await page.getByTestId(`run-row-${runId}`).click();
  clicks++;
  // The run opens at its failing step: the attempt, its error, and where its input came from.
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write');
  await expect(page.getByTestId('attempt-error')).toContainText('412');
  await expect(page.getByTestId('provenance')).toContainText('steps.validate.output.baseRevision');
  expect(clicks).toBeLessThanOrEqual(3);
});

test('scrubbing back to before a retry shows the graph as it was, and the timeline shows every attempt', async ({ page }) => {
  const runId = await start(['agent-escalation.weft.json', '--input', JSON.stringify({ ticketId: 'T-1', customerMessage: 'My parcel never arrived.', orderTotal: 49.9 })]);
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('step-state-propose')).toHaveText(/succeeded ×3/);
  await expect(page.getByTestId('run-timeline')).toBeVisible();
  await expect(page.locator('[data-testid="timeline-row"][data-step="propose"]').first()).toBeVisible();
  await shootBothThemes(page, 'run-timeline', {
    ...appChrome(page),
    'run state': page.getByTestId('run-state'),
    'propose on the graph': page.getByTestId('step-node-propose'),
    timeline: page.getByTestId('run-timeline'),
    "propose's row": page.locator('[data-testid="timeline-row"][data-step="propose"]').first(),
  });
  // Back to the first step settle before the end: propose had not yet been retried twice.
  await page.getByTestId('tt-slider').fill('4');
  await expect(page.getByTestId('time-travel-banner')).toBeVisible();
  await expect(page.getByTestId('tt-where')).toContainText('as of event 4');
  await expect(page.getByTestId('timeline-cursor')).toBeVisible();
  await expect(page.getByTestId('step-state-propose')).not.toHaveText(/×3/);
  await expect(page.getByTestId('step-state-approve')).toHaveText(/blocked/);
  await page.getByTestId('tt-next-settle').click();
  await expect(page.getByTestId('step-state-propose')).toHaveText(/succeeded ×3/);
  await page.getByTestId('tt-live').click();
  await expect(page.getByTestId('time-travel-banner')).toHaveCount(0);
  await expect(page.getByTestId('timeline-cursor')).toHaveCount(0);
  await expect(page.getByTestId('step-state-approve')).toHaveText(/waiting/);
});
