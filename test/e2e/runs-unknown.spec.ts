// The run page in Debian's chromium against the real `weft serve` on a copy of examples/: a
// record-update whose write times out (a records API that never answers the PUT) ends `unknown`
// and goes on to verify instead of being retried, and is resolved with evidence from the page, after
// which verify passes, the reconcile task it had opened is withdrawn, and notify_intent runs;
// and a map over three items, one failing, lists its child runs with breadcrumbs back.
import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, listenLoopback, openRunFromList, type Served, shootBothThemes, startServe, weft, type Workspace } from './weft-serve.ts';
import { CHECK_ALL, CHECK_ITEM } from '../fixtures/map-items.ts';

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${served.url}${path}`, { headers: { authorization: `Bearer ${served.token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

interface RunView {
  run: { state: string };
  steps: { id: string; state: string; attempts: { id: string; output?: unknown }[] }[];
  children: { runId: string; stepId: string; index?: number; state: string | null }[];
}

interface EventRecord {
  seq: number;
  type: string;
  step: string | null;
  reason: string | null;
  data: unknown;
}

const getRun = (runId: string) => api<RunView>(`/api/runs/${runId}`);
const step = async (runId: string, stepId: string) => (await getRun(runId)).steps.find((s) => s.id === stepId);

async function events(runId: string): Promise<EventRecord[]> {
  const all: EventRecord[] = [];
  let after = 0;
  for (;;) {
    const page = await api<{ events: EventRecord[]; next: number | null }>(`/api/runs/${runId}/events?after=${after}&limit=1000`);
    all.push(...page.events);
    if (page.next === null) return all;
    after = page.next;
  }
}

/**
 * The records API of record-update, in its fault: GET /records/A17 answers the record, a PUT is
 * received and never answered (the write times out). land() makes the record show the change,
 * as when the hung request was in fact applied late and a person finds it in the records console.
 */
interface HangingRecords {
  url: string;
  puts: number;
  land(): void;
  close(): Promise<void>;
}

async function hangingRecordsApi(): Promise<HangingRecords> {
  let record = { id: 'A17', revision: 3, fields: { status: 'open', owner: 'ops', priority: 'normal' } };
  const held: ServerResponse[] = [];
  const state = { puts: 0 };
  const server = await listenLoopback((req, res) => {
    if (req.method === 'PUT' && req.url === '/records/A17') {
      state.puts += 1;
      held.push(res);
      req.resume();
      return;
    }
    if (req.method === 'GET' && req.url === '/records/A17') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not_found' }));
  });
  return {
    url: server.url,
    get puts() {
      return state.puts;
    },
    land() {
      record = { ...record, revision: 4, fields: { ...record.fields, status: 'archived' } };
    },
    close: server.close,
  };
}


test('a write that times out ends unknown, verify runs instead of a retry, and the unknown is resolved with evidence from the run page', async ({ page }) => {
  // The write's timeout (10 s) and verify's four reads (2 + 4 + 8 s apart) are the example's own:
  // real time the engine waits, within playwright.config.ts's bounds at any speed.
  const records = await hangingRecordsApi();
  try {
    // Started from the app's start form, so the server's engine runs it and the page follows live.
    await page.goto(served.address);
    await page.getByTestId('nav-tasks').click();
    await page.getByTestId('action-start-run').click();
    await page.getByTestId('start-workflow-record-update').click();
    const start = page.getByTestId('dialog-start-run');
    await expect(start).toBeVisible();
    await start.getByTestId('field-apiBase').fill(records.url);
    await start.getByTestId('field-recordId').fill('A17');
    await start.getByTestId('field-field').fill('status');
    await start.getByTestId('field-value').fill('archived');
    await start.getByTestId('field-baseRevision').fill('3');
    await start.getByTestId('field-recipient').fill('R2');
    await start.getByTestId('submit-action').click();
    await expect(page).toHaveURL(/#\/run\//);
    const runId = decodeURIComponent(/#\/run\/([^/?#]+)/.exec(page.url())?.[1] ?? '');
    expect(runId).not.toBe('');
    await expect(page.getByTestId('run-view')).toBeVisible();

    // The PUT went out and no reply came: the write ends unknown, after its one attempt. (The
    // API's count, not the page's "running", which a slow page may never get to show in time.)
    await expect.poll(() => records.puts).toBe(1);
    await expect(page.getByTestId('step-state-write')).toHaveText(/^unknown$/);
    await page.getByTestId('step-node-write').click();
    await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write');
    await expect(page.getByTestId('attempt-error')).toContainText('timed out after 10000 ms');
    await expect(page.getByTestId('attempt-error')).toContainText('was sent and no reply had arrived');
    await expect(page.getByTestId('step-next')).toContainText('never retried automatically');
    await shootBothThemes(page, 'run-unknown', {
      ...appChrome(page),
      'run state': page.getByTestId('run-state'),
      'write on the graph': page.getByTestId('step-node-write'),
      'verify on the graph': page.getByTestId('step-node-verify'),
      "the step detail's head": page.getByTestId('step-detail').locator('.rsd-head'),
      'its error': page.getByTestId('attempt-error'),
      'what may happen next': page.getByTestId('step-next'),
    });

    // verify became ready through the write's unknown edge; the write was not retried.
    const log = await events(runId);
    const writeSettled = log.find((e) => e.type === 'step_settled' && e.step === 'write');
    const verifyActivated = log.find((e) => e.type === 'step_activated' && e.step === 'verify');
    expect(writeSettled).toBeDefined();
    expect(verifyActivated).toBeDefined();
    expect(JSON.stringify(verifyActivated)).toContain('write_unknown_to_verify');
    expect(verifyActivated?.seq).toBeGreaterThan(writeSettled?.seq ?? Infinity);
    expect(log.filter((e) => e.type === 'attempt_started' && e.step === 'write')).toHaveLength(1);
    expect(log.some((e) => e.type === 'retry_scheduled' && e.step === 'write')).toBe(false);
    // As of verify's activation, the page shows it ready and the write unknown.
    await page.getByTestId('tt-slider').fill(String(verifyActivated?.seq));
    await expect(page.getByTestId('tt-where')).toContainText(`as of event ${verifyActivated?.seq}`);
    await expect(page.getByTestId('step-state-verify')).toHaveText(/^ready$/);
    await expect(page.getByTestId('step-state-write')).toHaveText(/^unknown$/);
    await page.getByTestId('tt-live').click();
    await expect(page.getByTestId('time-travel-banner')).toHaveCount(0);

    // verify reads a record that does not show the change, so it fails and a person is asked to
    // reconcile; follow-up stays blocked. Still one PUT: nothing sent the write again.
    await expect(page.getByTestId('step-state-reconcile')).toHaveText(/waiting/);
    await expect(page.getByTestId('step-state-verify')).toHaveText(/failed/);
    await expect(page.getByTestId('step-state-notify_intent')).toHaveText(/blocked/);
    expect((await step(runId, 'write'))?.attempts).toHaveLength(1);
    expect(records.puts).toBe(1);

    // The change did land: resolve the write as succeeded, with what the records console shows.
    records.land();
    await page.getByTestId('step-node-write').click();
    await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write');
    await page.getByTestId('action-resolve').click();
    const resolve = page.getByTestId('dialog-resolve');
    // Nothing is chosen for the person (issue 21): sending waits for their answer, and says so.
    await expect(resolve.getByTestId('resolve-succeeded')).not.toBeChecked();
    await expect(resolve.getByTestId('resolve-failed')).not.toBeChecked();
    await expect(resolve.getByTestId('submit-action')).toBeDisabled();
    await expect(resolve.getByTestId('action-choose')).toHaveText('Choose what the step really did: succeeded or failed.');
    await shootBothThemes(page, 'dialog-resolve-choose', { dialog: resolve, 'the choice': resolve.getByRole('radiogroup'), 'why it cannot be sent': resolve.getByTestId('action-choose') });
    await resolve.getByTestId('resolve-succeeded').check();
    await expect(resolve.getByTestId('submit-action')).toBeEnabled();
    await expect(resolve.getByTestId('action-choose')).toHaveCount(0);
    await resolve.getByTestId('resolve-evidence-tab-json').click();
    await resolve.locator('[data-testid="resolve-evidence-json"] .cm-content').fill('{"status": 200, "body": {"id": "A17", "revision": 4}}');
    await resolve.getByTestId('action-reason').fill('records console shows A17 archived at revision 4');
    await resolve.getByTestId('submit-action').click();
    // The engine takes the operator's word for an external effect: a confirmation comes first.
    await expect(resolve.getByTestId('confirm-panel')).toContainText('it will not send the request again');
    expect((await step(runId, 'write'))?.state).toBe('unknown');
    await resolve.getByTestId('confirm-action').click();
    await expect(resolve).toHaveCount(0);
    await expect(page.getByTestId('step-state-write')).toHaveText(/succeeded/);
    // The resolution routes the write's success: verify reads the record again and accepts it.
    await expect(page.getByTestId('step-state-verify')).toHaveText(/succeeded/);
    const resolved = await events(runId);
    expect(resolved.find((e) => e.type === 'operator_action' && e.step === 'write')).toBeDefined();
    expect(JSON.stringify(resolved)).toContain('records console shows A17 archived at revision 4');
    expect(JSON.stringify(resolved.filter((e) => e.type === 'step_activated' && e.step === 'verify').at(-1))).toContain('write_to_verify');

    // reconcile's task opened when verify first failed; verify has now passed, so the question it
    // asked is gone: the task is withdrawn (skipped, with the reason) and notify_intent runs.
    await expect(page.getByTestId('step-state-reconcile')).toHaveText(/skipped/);
    await page.getByTestId('step-node-reconcile').click();
    await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'reconcile');
    const withdrawn = (await events(runId)).find((e) => e.type === 'step_settled' && e.step === 'reconcile');
    expect(withdrawn?.reason).toMatch(/withdrawn: .*"verify_failed_to_reconcile".* no longer taken/);
    await page.getByTestId('run-tab-record').click();
    await expect(page.getByTestId('restart-record')).toContainText('withdrawn: the edge that activated it, "verify_failed_to_reconcile", is no longer taken');
    const tasks = await api<{ tasks: { runId: string }[] }>('/api/tasks');
    expect(tasks.tasks.filter((t) => t.runId === runId)).toEqual([]);
    await expect(page.getByTestId('step-state-notify_intent')).toHaveText(/succeeded/);
    await expect(page.getByTestId('run-state')).toHaveText('succeeded');
    const notify = await step(runId, 'notify_intent');
    expect(notify?.attempts.at(-1)?.output).toMatchObject({ recipient: 'R2', recordId: 'A17', value: 'archived', delivered: false });
    expect(records.puts).toBe(1);
  } finally {
    await records.close();
  }
});

test('a map over three items lists its child runs with their states; the failed item is one click away, with a breadcrumb back', async ({ page }) => {
  writeFileSync(join(ws.dir, 'check-item.weft.json'), JSON.stringify(CHECK_ITEM, null, 2));
  writeFileSync(join(ws.dir, 'check-all.weft.json'), JSON.stringify(CHECK_ALL, null, 2));
  const r = await weft(ws, ['run', 'check-all.weft.json', '--input', JSON.stringify({ skus: ['OK-1', 'BAD-2', 'OK-3'] }), '--json']);
  expect(r.stderr).toBe('');
  const { runId } = JSON.parse(r.stdout) as { runId: string };
  const children = (await getRun(runId)).children;
  expect(children.map((c) => [c.index, c.state])).toEqual([
    [0, 'succeeded'],
    [1, 'failed'],
    [2, 'succeeded'],
  ]);
  const failed = children[1]?.runId ?? '';

  await openRunFromList(page, served, runId);
  await page.getByTestId('run-tab-run').click();
  const list = page.getByTestId('child-runs');
  await expect(list.getByRole('button')).toHaveCount(3);
  for (const c of children) {
    const row = list.getByTestId(`child-run-${c.runId}`);
    await expect(row).toContainText(`check_each [${c.index}]`);
    await expect(row.locator('.state')).toHaveText(c.state ?? '');
  }
  await expect(page.getByTestId('step-state-check_each')).toHaveText(/succeeded/);
  await shootBothThemes(page, 'run-child-runs', {
    ...appChrome(page),
    'run state': page.getByTestId('run-state'),
    'the map on the graph': page.getByTestId('step-node-check_each'),
    'child runs': list,
    ...Object.fromEntries(children.map((c) => [`child run ${c.index}`, list.getByTestId(`child-run-${c.runId}`)])),
  });

  // One click: the failed item's run, opened at its failing step.
  await list.getByTestId(`child-run-${failed}`).click();
  await expect(page.locator('.run-id')).toHaveText(failed);
  await expect(page.getByTestId('run-state')).toHaveText('failed');
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'check');
  await expect(page.getByTestId('attempt-error')).toContainText('acceptance rule');
  const crumb = page.getByTestId('parent-run');
  await expect(crumb).toContainText(`${runId} · check_each [1]`);
  await crumb.click();
  await expect(page.locator('.run-id')).toHaveText(runId);
  await expect(page.getByTestId('parent-run')).toHaveCount(0);
});
