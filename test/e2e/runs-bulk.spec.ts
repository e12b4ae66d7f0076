// Bulk retry from the runs list in Debian's chromium against the real `weft serve`: three runs of
// a workflow whose http step calls a counting API on 127.0.0.1; two failed (the API answered 500),
// one succeeded. Selected by "select all matching" under the list's filter, the preview says two
// will be retried and the succeeded one is refused; Apply shows progress, then the result names the
// refused run (a link to it) and why. The two failed runs leave failed, each with exactly one new
// request to the API, and the refused one sends none.
import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, listenLoopback, shootBothThemes, startServe, type Loopback, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: Loopback;
const answers = new Map<string, 'fail' | 'ok'>();
const received: string[] = [];
const calls = (id: string): number => received.filter((r) => r === id).length;

test.beforeAll(async () => {
  api = await listenLoopback((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = (req.url ?? '').split('/').pop() ?? '';
      received.push(id);
      if (answers.get(id) === 'fail') res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, saved: true }));
    });
  });
  ws = exampleWorkspace();
  writeFileSync(
    join(ws.dir, 'bulk-call.weft.json'),
    JSON.stringify({
      format: 'weft/v1',
      id: 'bulk-call',
      version: 1,
      name: 'One call per record',
      input: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      steps: [
        { id: 'call', kind: 'http', config: { method: 'POST', url: `${api.url}/call/{{ input.id }}`, body: 'input', expectStatus: [200] } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'e', from: 'call', to: 'done' }],
    }),
  );
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
  await api?.close();
});

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${served.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

const stateOf = async (runId: string): Promise<string> => (await call<{ run: { state: string } }>('GET', `/api/runs/${runId}`)).run.state;

async function start(id: string, how: 'fail' | 'ok', ends: string): Promise<string> {
  answers.set(id, how);
  const { runId } = await call<{ runId: string }>('POST', '/api/runs', { workflow: 'bulk-call', input: { id } });
  await expect.poll(() => stateOf(runId)).toBe(ends);
  return runId;
}

test('bulk-retry the failed runs from the list: a preview, progress, and a result naming the refused run', async ({ page }) => {
  const a = await start('a', 'fail', 'failed');
  const b = await start('b', 'ok', 'succeeded');
  const c = await start('c', 'fail', 'failed');
  answers.set('a', 'ok');
  answers.set('c', 'ok');

  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await page.getByLabel('filter runs by workflow or run id').fill('bulk-call');
  await expect(page.getByTestId('run-count')).toHaveText('3 matching');
  await page.getByTestId('runs-select').click();
  await page.getByTestId('bulk-select-all').click();
  await expect(page.getByTestId('bulk-count')).toHaveText('3 selected');
  await expect(page.getByTestId(`select-${b}`)).toBeChecked();
  await page.getByTestId('bulk-retry').click();

  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-preview-summary')).toHaveText('2 would be acted on, 1 refused');
  await expect(dialog.getByTestId(`bulk-row-${a}`)).toContainText('retry step "call"');
  await expect(dialog.getByTestId(`bulk-row-${b}`)).toContainText(`cannot retry run ${b}: it is succeeded`);
  await expect(dialog.getByTestId('bulk-apply')).toHaveText('Retry 2 runs');
  // The preview wrote nothing: no run was retried, no request sent.
  expect([calls('a'), calls('b'), calls('c')]).toEqual([1, 1, 1]);
  await shootBothThemes(page, 'runs-bulk-preview', { dialog });

  await dialog.getByTestId('action-reason').fill('the records API is back');
  // Keyboard: the apply button is reached and pressed without the mouse.
  await dialog.getByTestId('bulk-apply').focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('bulk-result-summary')).toHaveText('2 done, 1 refused');
  await expect(dialog.getByTestId(`bulk-row-${a}`)).toContainText('retry step "call" → succeeded');
  await expect(dialog.getByTestId(`bulk-row-${c}`)).toContainText('→ succeeded');
  const refused = dialog.getByTestId(`bulk-row-${b}`);
  await expect(refused).toHaveAttribute('data-status', 'refused');
  await expect(refused).toContainText('it is succeeded');
  await shootBothThemes(page, 'runs-bulk-result', { dialog });

  expect([calls('a'), calls('b'), calls('c')]).toEqual([2, 1, 2]);
  expect([await stateOf(a), await stateOf(b), await stateOf(c)]).toEqual(['succeeded', 'succeeded', 'succeeded']);

  // The refused run's link opens it; the list no longer shows a failed run of the workflow.
  await refused.getByRole('link', { name: b }).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
  await page.getByTestId('nav-runs').click();
  await page.getByLabel('filter runs by workflow or run id').fill('bulk-call');
  await page.getByLabel('filter runs by state').selectOption('failed');
  await expect(page.getByText('No run matches.')).toBeVisible();
});
