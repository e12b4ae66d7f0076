// "Save as test" on the run page (issue 22 part 2), in Debian's chromium against the real
// `weft serve` on a copy of examples/: a record-update run whose records API answered 500 to every
// write failed at write_failed; Save as test writes record-update.scenarios/from-run-RUN.json
// beside the workflow and says so, the JSON can be seen, the file parses as a scenarios file and
// its scenario passes against the workflow in virtual time, with no request to the records API.
// A second save is refused in the engine's words, and a run still waiting cannot be saved.
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, listenLoopback, startServe, weft, type Loopback, type Served, type Workspace } from './weft-serve.ts';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { loadDefinitionFile } from '../../engine/definition/load-definition-file.ts';

let ws: Workspace;
let served: Served;
let api: Loopback;
/** Requests the records API (a stand-in answering 500 to every PUT) received. */
let received = 0;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  // record-update as shipped, with its retry waits shortened: the failing write's three attempts need not wait.
  const file = join(ws.dir, 'record-update.weft.json');
  const wf = JSON.parse(readFileSync(file, 'utf8')) as { steps: { retry?: Record<string, number> }[] };
  for (const s of wf.steps) if (s.retry !== undefined) Object.assign(s.retry, { initialIntervalMs: 50, maxIntervalMs: 100, jitter: 0 });
  writeFileSync(file, JSON.stringify(wf, null, 2));
  // A run that waits for a person, for the disabled button.
  const review = {
    format: 'weft/v1', id: 'check-first', version: 1, name: 'Check first',
    steps: [
      { id: 'draft', kind: 'transform', config: { expression: '{"title": "t"}' } },
      { id: 'check', kind: 'human', config: { task: 'approve', title: 'Check the draft' }, deadlineMs: 86_400_000 },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'a', from: 'draft', to: 'check' }, { id: 'b', from: 'check', to: 'done' }],
  };
  writeFileSync(join(ws.dir, 'check-first.weft.json'), JSON.stringify(review, null, 2));
  api = await listenLoopback((req, res) => {
    received += 1;
    req.resume();
    req.on('end', () => {
      if (req.method === 'PUT') res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal","message":"the records store is down"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"A17","revision":3,"fields":{"status":"open"}}');
    });
  });
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

async function run(input: Record<string, unknown>, workflow: string, code: number): Promise<string> {
  const r = await weft(ws, ['run', workflow, '--input', JSON.stringify(input), '--json']);
  expect(r.code, r.stderr).toBe(code);
  return (JSON.parse(r.stdout) as { runId: string }).runId;
}

test('a failed run saved as a test: the file beside the workflow parses and passes, and says where it is', async ({ page }) => {
  const runId = await run({ apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' }, 'record-update.weft.json', 1);
  const before = received;
  expect(before).toBe(3);

  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
  // Save as test is an item of the run's Compare menu.
  await page.getByTestId('compare-button').click();
  const button = page.getByTestId('save-as-test');
  await expect(button).toBeEnabled();
  await button.click();

  const dialog = page.getByTestId('dialog-save-as-test');
  const where = `record-update.scenarios/from-run-${runId}.json`;
  await expect(dialog.getByTestId('save-test-saved')).toContainText(`Saved as ${where}`);
  await expect(dialog.getByTestId('save-test-saved')).toContainText('weft test record-update.weft.json');
  await dialog.getByTestId('save-test-show').click();
  await expect(dialog.getByTestId('save-test-json')).toContainText(`"name": "from run ${runId} (record-update v1, failed,`);
  await expect(dialog.getByTestId('save-test-json')).toContainText('"fail": "http_500"');
  await page.screenshot({ path: 'test-results/screenshots/save-as-test-light.png', animations: 'disabled' });

  // The file is where it says, a scenarios file whose scenario passes against the workflow.
  const path = join(ws.dir, where);
  expect(existsSync(path)).toBe(true);
  const file = ScenarioFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  expect(file.scenarios).toHaveLength(1);
  expect(file.scenarios[0]?.expect).toMatchObject({ state: 'failed', steps: { write: { state: 'failed', attempts: 3 }, write_failed: { state: 'succeeded' } } });
  const loaded = await loadDefinitionFile(join(ws.dir, 'record-update.weft.json'));
  if (loaded.workflow === undefined || file.scenarios[0] === undefined) throw new Error('the workflow or the scenario did not load');
  const result = await runScenario(loaded.workflow, file.scenarios[0]);
  expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
  expect(result.passed).toBe(true);
  expect(received).toBe(before);

  // Saved once: a second save says so in the engine's words, and the file stays.
  const text = readFileSync(path, 'utf8');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await page.getByTestId('compare-button').click();
  await button.click();
  await expect(page.getByTestId('save-test-error')).toContainText(`${where} exists already`);
  expect(readFileSync(path, 'utf8')).toBe(text);
  await page.getByTestId('dialog-save-as-test').getByRole('button', { name: 'Close', exact: true }).click();
});

test('a run still waiting for a person cannot be saved as a test yet, and the button says why', async ({ page }) => {
  const runId = await run({}, 'check-first.weft.json', 3);
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await page.getByTestId('compare-button').click();
  const button = page.getByTestId('save-as-test');
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute('title', /a test is made from a run that has ended/);
});
