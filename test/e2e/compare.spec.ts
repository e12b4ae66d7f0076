// The compare view in Debian's chromium against the real `weft serve` (issue 19, items 8 and 11).
// First, two runs of the record-update example against examples/fake-api.mjs, where run A went
// through the graph twice: its verify failed and opened a reconcile task, then a revision and an
// operator's retry sent the write again, the API refused it, and the run ended in write_failed.
// The view draws A's path in the order things happened (reconcile before write_failed), shows
// what verify and reconcile did in the first pass instead of "skipped", and gives a time only to
// steps that ran. Second, two runs holding 3 MB inputs: the comparison ships stubs for the large
// fields, and a stub opens in the JSON view, read from its run by path. Both in both themes.
import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, shootBothThemes, startFakeApi, startServe, weft, type FakeApi, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: FakeApi;
const runs = { p: '', a: '', bulkA: '', bulkB: '' };

const recordInput = (baseRevision: number) => JSON.stringify({ apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision, recipient: 'R2' });

/** About 3 MB; the two runs differ in a 100 KB text, one item's name and a note. */
function bulkInput(side: 'a' | 'b'): unknown {
  const items = Array.from({ length: 20_000 }, (_, id) => ({ id, name: `item ${id}`, note: 'x'.repeat(120) }));
  items[7] = { id: 7, name: `item 7 of ${side}`, note: 'x'.repeat(120) };
  return { items, text: side.repeat(100_000), note: `run ${side}` };
}

async function runId(args: string[], code: number): Promise<string> {
  const r = await weft(ws, [...args, '--json']);
  expect(r.code, r.stderr).toBe(code);
  return (JSON.parse(r.stdout) as { runId: string }).runId;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ws = exampleWorkspace();
  api = await startFakeApi();
  // The example as it is, but verify gives up after two quick reads instead of waiting 14 s.
  const file = join(ws.dir, 'record-update.weft.json');
  const workflow = JSON.parse(readFileSync(file, 'utf8')) as { steps: { id: string; retry?: unknown }[] };
  const verify = workflow.steps.find((s) => s.id === 'verify');
  if (verify !== undefined) verify.retry = { maxAttempts: 2, initialIntervalMs: 10, backoffCoefficient: 1, maxIntervalMs: 10 };
  writeFileSync(file, JSON.stringify(workflow));
  writeFileSync(join(ws.dir, 'bulk.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'bulk', version: 1, name: 'Bulk',
    steps: [
      { id: 'echo', kind: 'transform', config: { expression: 'input' } },
      { id: 'done', kind: 'end', input: '{"items": $count(steps.echo.output.items)}' },
    ],
    edges: [{ id: 'a', from: 'echo', to: 'done' }],
  }));

  // The runs are made before the server starts, by `weft` on the store, as a terminal would.
  runs.p = await runId(['run', 'record-update.weft.json', '--input', recordInput(3)], 0);
  const moved = await fetch(`${api.url}/records/A17`, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': '4' }, body: JSON.stringify({ fields: { status: 'on_hold' } }) });
  expect(moved.status).toBe(200);
  runs.a = await runId(['run', 'record-update.weft.json', '--input', recordInput(3)], 3);
  expect((await weft(ws, ['revise', runs.a, '--input', recordInput(9)])).code).toBe(3);
  expect((await weft(ws, ['retry', runs.a, 'write', '--reason', 'send it with the new base revision'])).code).toBe(1);
  for (const side of ['a', 'b'] as const) {
    const inputFile = join(ws.dir, `bulk-${side}.json`);
    writeFileSync(inputFile, JSON.stringify(bulkInput(side)));
    const id = await runId(['run', 'bulk.weft.json', '--input', `@${inputFile}`], 0);
    if (side === 'a') runs.bulkA = id;
    else runs.bulkB = id;
  }
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

test('a run that went through the graph twice: its path in the order things happened, and no time for a step that did not run', async ({ page }) => {
  await page.goto(served.address);
  await page.goto(`${served.url}/#/compare/${runs.p}/${runs.a}`);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  const path = page.getByTestId('compare-route-b').locator('.compare-route-step');
  await expect(path).toHaveText(['validate', 'write', 'verify', 'reconcile', 'write_failed']);
  await expect(page.getByTestId('compare-route-a').locator('.compare-route-step')).toHaveText(['validate', 'write', 'verify', 'notify_intent', 'done']);

  const cell = (step: string, what: 'state' | 'duration', side: 0 | 1) => page.locator(`[data-testid="compare-step-row"][data-step="${step}"] [data-testid="compare-${what}"]`).nth(side);
  // verify failed in the first pass and the second went past it; reconcile's task was withdrawn.
  await expect(cell('verify', 'state', 1)).toHaveText('failed then skipped');
  await expect(cell('verify', 'duration', 1)).toHaveText(/^\d+(ms|\.\d+s|s)$/);
  await expect(cell('reconcile', 'state', 1)).toHaveText('withdrawn');
  // Steps that did not run have no time, whatever their state.
  for (const step of ['notify_intent', 'done', 'unresolved', 'rejected_request']) await expect(cell(step, 'duration', 1)).toHaveText('');
  for (const step of ['reconcile', 'write_failed', 'unresolved']) await expect(cell(step, 'duration', 0)).toHaveText('');
  await shootBothThemes(page, 'compare-two-passes', { verify: cell('verify', 'state', 1), reconcile: cell('reconcile', 'state', 1) });
});

test('runs holding 3 MB inputs: the large fields come as stubs and open from their run', async ({ page }) => {
  await page.goto(served.address);
  await page.goto(`${served.url}/#/compare/${runs.bulkA}/${runs.bulkB}`);
  const first = page.getByTestId('first-difference');
  await expect(first).toHaveAttribute('data-step', 'echo');
  await expect(first).toHaveAttribute('data-kind', 'input');
  const text = first.locator('[data-testid="field-diff-row"][data-path="$.text"]');
  await expect(text.locator('td').nth(1)).toContainText('string · 100,000 characters · 98 KB');
  await expect(first.locator('[data-testid="field-diff-row"][data-path="$.note"] td').nth(2)).toHaveText('"run b"');
  // B's text opens in the JSON view, read from run B by the stub's path.
  await text.locator('[data-testid="field-diff-open-value"][data-side="b"]').click();
  const json = first.getByTestId('field-diff-json');
  await expect(json).toBeVisible();
  await json.getByTestId('json-load').click();
  await expect(json).toContainText('bbbbbbbbbb');
  await shootBothThemes(page, 'compare-large-values', { 'first difference': first.locator('[data-testid="field-diff-row"][data-path="$.text"]') });
});
