// Replay in the app (issue 22 part 1), in Debian's chromium against the real `weft serve` on a copy
// of examples/. record-update v1 carries a bug in verify's acceptance rule (it wants a revision two
// past the base, where a write makes one): a run writes the record, its read-back is refused, the
// person reconciling rejects, and the run fails. The fix (v2, the rule as shipped) is saved to the
// file. "Replay on…" from the failed run, on the file as saved now, answers `fixed` with the
// comparison; "Test on failures" in the editor lists the run as fixed and opens the two side by
// side. The records API (a counting stand-in on 127.0.0.1) sees no request during any replay.
import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, listenLoopback, shootBothThemes, startServe, weft, type Loopback, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: Loopback;
/** Requests the records API received. */
let received = 0;
let runId = '';

interface Step {
  id: string;
  accept?: string;
  retry?: Record<string, number>;
}

test.beforeAll(async () => {
  ws = exampleWorkspace();
  const file = join(ws.dir, 'record-update.weft.json');
  const shipped = readFileSync(file, 'utf8');
  const wf = JSON.parse(shipped) as { version: number; steps: Step[] };
  for (const s of wf.steps) if (s.retry !== undefined) Object.assign(s.retry, { initialIntervalMs: 50, maxIntervalMs: 100, jitter: 0, maxAttempts: 2 });
  const verify = wf.steps.find((s) => s.id === 'verify');
  if (verify === undefined) throw new Error('record-update has no verify step');
  const fixedRule = verify.accept;
  if (fixedRule === undefined) throw new Error('record-update\'s verify has no acceptance rule');
  verify.accept = 'output.body.id = steps.validate.output.recordId and output.body.revision > steps.validate.output.baseRevision + 1';
  writeFileSync(file, JSON.stringify(wf, null, 2));
  api = await listenLoopback((req, res) => {
    received += 1;
    req.resume();
    req.on('end', () => {
      const body = req.method === 'PUT' ? { status: 200, id: 'A17', revision: 4 } : { id: 'A17', revision: 4, fields: { status: 'archived' } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.method === 'PUT' ? { id: body.id, revision: body.revision } : body));
    });
  });
  served = await startServe(ws);

  const started = await weft(ws, ['run', 'record-update.weft.json', '--input', JSON.stringify({ apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' }), '--json']);
  runId = (JSON.parse(started.stdout) as { runId: string }).runId;
  expect(runId, started.stderr).not.toBe('');
  await expect.poll(async () => (await weft(ws, ['tasks', '--json'])).stdout).toContain(runId);
  const rejected = await weft(ws, ['reject', runId, 'reconcile', '--reason', 'the record holds the value; the rule is wrong']);
  // weft reject answers with the run's outcome: the rejection ends it failed (exit 1, as weft run).
  expect(rejected.code, rejected.stderr + rejected.stdout).toBe(1);
  expect(`${rejected.stderr}${rejected.stdout}`).toContain(`run ${runId}: failed`);

  // The fix, saved to the file: the rule as shipped, as version 2 (v1 has run, so it stays as it was).
  wf.version = 2;
  verify.accept = fixedRule;
  writeFileSync(file, JSON.stringify(wf, null, 2));
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

test('a failed record-update run replayed on the fixed file: fixed, with the comparison, and nothing sent', async ({ page }) => {
  const before = received;
  expect(before).toBe(3); // one write, two reads of verify
  await page.goto(served.address);
  await page.goto(`${served.url}/#/run/${runId}`);
  await expect(page.getByTestId('run-state')).toHaveText('failed');
  await page.getByTestId('compare-button').click();
  await page.getByTestId('replay-on').click();
  // Picking the item closes the menu; the dialog stays.
  await expect(page.getByTestId('replay-on')).toBeHidden();
  const dialog = page.getByTestId('dialog-replay');
  await expect(dialog.getByTestId('replay-against-file')).toBeChecked();
  await expect(dialog.getByTestId('replay-choices')).toContainText('(v2)');
  await dialog.getByTestId('replay-submit').click();

  const result = dialog.getByTestId('replay-result');
  await expect(result).toHaveAttribute('data-verdict', 'fixed');
  await expect(result.getByTestId('replay-verdict')).toHaveText('fixed');
  await expect(result.getByTestId('replay-sentence')).toContainText('ended failed; with the same recorded answers, the other definition ends it succeeded');
  // The comparison: the first difference is verify's outcome, and the replay's path reaches done.
  await expect(result.getByTestId('first-difference')).toHaveAttribute('data-step', 'verify');
  await expect(result.getByTestId('compare-route-b')).toContainText('done');
  await expect(result.getByTestId('compare-route-a')).toContainText('reconcile');
  await shootBothThemes(page, 'replay-fixed', { dialog, summary: result.getByTestId('replay-summary') });
  expect(received).toBe(before);

  // The replay opens like any run, says what it replays, and takes no actions.
  await result.getByTestId('replay-open-run').click();
  await expect(page.getByTestId('run-replay-of')).toContainText(`replay of ${runId} on`);
  await expect(page.getByTestId('run-state')).toHaveText('succeeded');
  await expect(page.getByTestId('run-actions')).toHaveCount(0);
  // Not among the runs.
  await page.getByTestId('nav-runs').click();
  await expect(page.getByTestId(`run-row-${runId}`)).toBeVisible();
  await expect(page.locator('[data-testid^="run-row-"]')).toHaveCount(1);
});

test('the editor tests the draft against recent failures: the run is fixed, and opens side by side', async ({ page }) => {
  const before = received;
  await page.goto(served.address);
  await page.goto(`${served.url}/#/workflow/record-update`);
  await page.getByTestId('test-draft').click();
  const dialog = page.getByTestId('dialog-test-draft');
  await expect(dialog.getByTestId('test-draft-summary')).toContainText('1 run: 1 fixed');
  const row = dialog.getByTestId(`test-draft-row-${runId}`);
  await expect(row).toHaveAttribute('data-verdict', 'fixed');
  await expect(row).toContainText('verify');
  await shootBothThemes(page, 'replay-test-draft', { dialog, row });
  await row.getByTestId(`test-draft-compare-${runId}`).click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('compare-run-a')).toContainText(runId);
  await expect(page.getByTestId('first-difference')).toHaveAttribute('data-step', 'verify');
  expect(received).toBe(before);
});

test('the runs list replays the selected runs on a version: the verdict per run, and nothing sent', async ({ page }) => {
  const before = received;
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  // The failed runs that went wrong at reconcile, on version 1: the list's filters, done by the server.
  await page.getByTestId('runs-filter-step').fill('reconcile');
  await page.getByTestId('runs-filter-version').fill('1');
  await expect(page.getByTestId('run-count')).toHaveText('1 matching');
  await page.getByTestId('runs-filter-version').fill('2');
  await expect(page.getByTestId('run-count')).toHaveText('0 matching');
  await page.getByTestId('runs-filter-version').fill('1');
  await expect(page.getByTestId('run-count')).toHaveText('1 matching');
  await page.getByTestId('runs-select').click();
  await page.getByTestId('bulk-select-all').click();
  await expect(page.getByTestId(`select-${runId}`)).toBeChecked();
  await page.getByTestId('bulk-replay').click();
  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-choose')).toContainText('Give the version');
  // v1 is the version the run ran (v2, the file, has not run: the store does not keep it yet).
  await dialog.getByTestId('bulk-version').fill('2');
  await expect(dialog.getByTestId(`bulk-row-${runId}`)).toContainText('has no version 2');
  await dialog.getByTestId('bulk-version').fill('1');
  await expect(dialog.getByTestId(`bulk-row-${runId}`)).toContainText('replay on record-update v1');
  await dialog.getByTestId('bulk-apply').click();
  await expect(dialog.getByTestId('bulk-result-summary')).toHaveText('1 done, 0 refused');
  const row = dialog.getByTestId(`bulk-row-${runId}`);
  await expect(row).toContainText('replayed on v1: same');
  await expect(row.getByTestId(`bulk-compare-${runId}`)).toHaveAttribute('data-verdict', 'same');
  await shootBothThemes(page, 'replay-bulk', { dialog, row });
  expect(received).toBe(before);
  await row.getByTestId(`bulk-compare-${runId}`).click();
  await expect(page.getByTestId('compare-same')).toBeVisible();
});
