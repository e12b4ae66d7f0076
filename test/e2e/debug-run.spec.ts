// Debug runs from the app's start form, in Debian's chromium against the real `weft serve`: a
// breakpoint picked by clicking a step on the form's graph, one step's output pinned by copying it
// from a past run's attempt and another typed in (refused first as invalid JSON, with where and how
// to fix it); the run pauses at the breakpoint and says in the app's words what Continue, Step and
// Resume do; Step, then Continue; the pinned step settles with the copied value and its endpoint
// (a real HTTP server on 127.0.0.1) is not called. Then "Start a run" for a workflow with errors:
// disabled before any form is filled, with the reason on hover and as its accessible description,
// wherever the launcher appears. One served workspace for the file; every wait is for a state.
import { expect, test, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { exampleWorkspace, listenLoopback, shootBothThemes, startServe, type Loopback, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: Loopback;
/** Requests the stand-in API received, by path. */
const calls: Record<string, number> = {};

/** A quote, then a charge (an external effect): the charge's answer says which call it was. */
const DEBUG_DEMO = {
  format: 'weft/v1',
  id: 'debug-demo',
  version: 1,
  name: 'Debug demo',
  input: { type: 'object', required: ['apiBase'], properties: { apiBase: { type: 'string', description: 'the shop API' } } },
  steps: [
    { id: 'prepare', name: 'Prepare order', kind: 'transform', config: { expression: '{ "orderId": "A17" }' } },
    { id: 'fetch_quote', name: 'Fetch quote', kind: 'http', config: { method: 'GET', url: '{{ input.apiBase }}/quote' } },
    { id: 'charge', name: 'Charge card', kind: 'http', effect: 'external', onExhausted: 'escalate', config: { method: 'POST', url: '{{ input.apiBase }}/charge', body: '{ "orderId": steps.prepare.output.orderId }' } },
    { id: 'done', name: 'Done', kind: 'end' },
  ],
  edges: [
    { id: 'prepare_fetch_quote', from: 'prepare', to: 'fetch_quote' },
    { id: 'fetch_quote_charge', from: 'fetch_quote', to: 'charge' },
    { id: 'charge_done', from: 'charge', to: 'done' },
  ],
};

/** Reads fine, but an edge goes to a step that does not exist: the validator finds 1 error. */
const BROKEN = {
  format: 'weft/v1',
  id: 'broken-flow',
  version: 1,
  name: 'Broken flow',
  steps: [
    { id: 'first', name: 'First', kind: 'transform', config: { expression: '1' } },
    { id: 'done', name: 'Done', kind: 'end' },
  ],
  edges: [
    { id: 'first_done', from: 'first', to: 'done' },
    { id: 'first_nowhere', from: 'first', to: 'nowhere' },
  ],
};

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'debug-demo.weft.json'), JSON.stringify(DEBUG_DEMO, null, 2));
  writeFileSync(join(ws.dir, 'broken-flow.weft.json'), JSON.stringify(BROKEN, null, 2));
  api = await listenLoopback((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    calls[path] = (calls[path] ?? 0) + 1;
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(path === '/charge' ? { charged: true, callNo: calls[path] } : { cents: 1250 }));
  });
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

interface RunView {
  run: { state: string; debug?: { breakpoints: string[]; pins: string[] } };
  steps: { id: string; state: string; attempts: { pinned?: true; output?: unknown }[] }[];
}

async function getRun(runId: string): Promise<RunView> {
  const response = await fetch(`${served.url}/api/runs/${runId}`, { headers: { authorization: `Bearer ${served.token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as RunView;
}

async function runCount(): Promise<number> {
  const response = await fetch(`${served.url}/api/runs?workflow=debug-demo`, { headers: { authorization: `Bearer ${served.token}` } });
  return ((await response.json()) as { runs: unknown[] }).runs.length;
}

/** A normal run of debug-demo through the API, to its end: the past run whose charge output is copied. */
async function pastRun(): Promise<string> {
  const response = await fetch(`${served.url}/api/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workflow: 'debug-demo', input: { apiBase: api.url } }),
  });
  expect(response.status).toBeLessThan(300);
  const { runId } = (await response.json()) as { runId: string };
  await expect.poll(async () => (await getRun(runId)).run.state).toBe('succeeded');
  return runId;
}

function runIdOf(page: Page): string {
  return decodeURIComponent(/#\/run\/([^/?#]+)/.exec(page.url())?.[1] ?? '');
}

test('a debug run started from the form: a breakpoint picked on the graph, pins copied and typed; Step, Continue, the pinned step not called', async ({ page }) => {
  const past = await pastRun();
  expect(calls['/charge']).toBe(1);
  const runsBefore = await runCount();

  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId('action-start-run').click();
  await page.getByTestId('start-workflow-debug-demo').click();
  const dialog = page.getByTestId('dialog-start-run');
  await dialog.getByTestId('field-apiBase').fill(api.url);
  await dialog.getByTestId('start-debug-toggle').click();
  await expect(dialog.getByTestId('start-debug-toggle')).toHaveAttribute('aria-expanded', 'true');

  // The breakpoint is picked on the graph: a click on the step marks it, and its checklist twin follows.
  const quoteNode = dialog.getByTestId('step-node-fetch_quote');
  await quoteNode.click();
  await expect(quoteNode).toHaveAttribute('data-breakpoint', 'true');
  await expect(dialog.getByTestId('debug-break-fetch_quote')).toBeChecked();
  // A click again clears it, and the checklist sets it back: both ways are one state.
  await quoteNode.click();
  await expect(quoteNode).not.toHaveAttribute('data-breakpoint', 'true');
  await dialog.getByTestId('debug-break-fetch_quote').check();
  await expect(quoteNode).toHaveAttribute('data-breakpoint', 'true');
  // An end step gives no output of its own: it cannot be pinned.
  await expect(dialog.getByTestId('debug-pin-done')).toBeDisabled();

  // prepare's output typed in: not JSON first, refused with where and how to fix it, nothing started.
  await dialog.getByTestId('debug-pin-prepare').check();
  await expect(dialog.getByTestId('step-node-prepare')).toHaveAttribute('data-pinned', 'true');
  await dialog.getByTestId('pin-text-prepare').fill('{orderId: "B42"}');
  // charge's output copied from the past run's attempt, fetched through the app's API client.
  await dialog.getByTestId('debug-pin-charge').check();
  await expect(dialog.getByTestId('pin-run-charge')).toHaveValue(past);
  await expect(dialog.getByTestId('pin-attempt-charge')).toContainText('1.1 · succeeded');
  await dialog.getByTestId('pin-copy-charge').click();
  await expect(dialog.getByTestId('pin-text-charge')).toHaveValue(/"callNo": 1/);
  await expect(dialog.getByTestId('pin-charge')).toContainText(`copied from run ${past}, attempt 1.1`);
  await dialog.getByTestId('submit-action').click();
  await expect(dialog.getByTestId('pin-error-prepare')).toContainText('prepare: not JSON: line 1, column 2');
  await expect(dialog.getByTestId('pin-error-prepare')).toContainText('Quote keys and strings with "double quotes"');
  await expect(dialog.getByTestId('pin-text-prepare')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByTestId('action-problem')).toContainText('Fix the pinned output of prepare');
  // The form is taller than the window: the picture shows its Debug section, scrolled to its end.
  await dialog.getByTestId('submit-action').scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'start-run-debug', {
    'debug graph': dialog.getByTestId('start-debug-graph'),
    'fetch_quote with its breakpoint': quoteNode,
    'step checklist': dialog.getByTestId('start-debug-steps'),
    "prepare's pin error": dialog.getByTestId('pin-error-prepare'),
  });
  expect(await runCount()).toBe(runsBefore);

  await dialog.getByTestId('pin-text-prepare').fill('{"orderId": "B42"}');
  await expect(dialog.getByTestId('pin-error-prepare')).toHaveCount(0);
  await expect(dialog.getByTestId('submit-action')).toHaveText('Start debug run');
  await dialog.getByTestId('submit-action').click();
  await expect(page).toHaveURL(/#\/run\//);
  const runId = runIdOf(page);
  expect(runId).not.toBe(past);

  // Paused before fetch_quote, with what each way on does in the app's words, and no CLI command.
  const paused = page.getByTestId('debug-actions');
  await expect(page.getByTestId('debug-where')).toHaveText('Paused before fetch_quote started, at its breakpoint.');
  await expect(paused.getByTestId('debug-explain')).toContainText('Continue starts fetch_quote and runs on');
  await expect(paused.getByTestId('debug-explain')).toContainText('Step starts fetch_quote, then pauses again before the next step that starts');
  await expect(paused.getByTestId('debug-explain-resume')).toContainText('Resume does what Continue does here');
  await expect(page.getByTestId('action-continue')).toHaveAccessibleDescription(/runs on/);
  await expect(page.getByTestId('action-resume')).toHaveAttribute('title', /does what Continue does here/);
  await expect(page.getByTestId('step-node-fetch_quote')).toHaveAttribute('data-breakpoint', 'true');
  await page.getByTestId('step-node-fetch_quote').click();
  await expect(page.getByTestId('step-next')).toContainText('ready: paused before fetch_quote started, at its breakpoint. Continue starts fetch_quote');
  await expect(page.getByTestId('step-detail')).not.toContainText('weft ');
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-step-fetch_quote')).toContainText('Continue or Step, at the top of the page, starts it');
  await expect(page.getByTestId('restart-record')).not.toContainText('weft ');
  await shootBothThemes(page, 'debug-run-paused', { 'paused panel': paused, continue: page.getByTestId('action-continue'), step: page.getByTestId('action-step'), resume: page.getByTestId('action-resume') });
  expect(calls['/quote']).toBe(1);

  // Step: fetch_quote runs (its endpoint called once more), and the run pauses before the next start.
  await page.getByTestId('action-step').click();
  await expect(page.getByTestId('debug-where')).toHaveText('Paused before charge started, after a Step.');
  expect(calls['/quote']).toBe(2);

  // Continue: charge settles with the pinned output, without a call; the run ends.
  await page.getByTestId('action-continue').click();
  await expect(page.getByTestId('run-state')).toHaveText('succeeded');
  await expect(page.getByTestId('debug-actions')).toHaveCount(0);
  const run = await getRun(runId);
  const charge = run.steps.find((s) => s.id === 'charge');
  expect(charge?.state).toBe('succeeded');
  expect(charge?.attempts.at(-1)).toMatchObject({ pinned: true, output: { body: { charged: true, callNo: 1 } } });
  expect(run.steps.find((s) => s.id === 'prepare')?.attempts.at(-1)).toMatchObject({ pinned: true, output: { orderId: 'B42' } });
  expect(calls['/charge']).toBe(1);
  await page.getByTestId('run-tab-step').click();
  await page.getByTestId('step-node-charge').click();
  await expect(page.getByTestId('attempt-pinned')).toBeVisible();
});

test('"Start a run" for a workflow with errors is disabled before any form, with the reason on hover and for screen readers', async ({ page }) => {
  const reason = /broken-flow\.weft\.json has 1 error, so the engine would refuse to start it: fix it in the editor \(Problems lists it\) and save\./;
  await page.goto(served.address);
  // The runs page's menu: the workflow is listed, disabled, with its reason.
  await page.getByTestId('nav-runs').click();
  await page.getByTestId('action-start-run').click();
  const item = page.getByTestId('start-workflow-broken-flow');
  await expect(item).toBeDisabled();
  await expect(item).toHaveAttribute('title', reason);
  await expect(item).toHaveAccessibleDescription(reason);
  await item.click({ force: true });
  await expect(page.getByTestId('dialog-start-run')).toHaveCount(0);
  await expect(page.getByTestId('start-workflow-debug-demo')).toBeEnabled();
  await shootBothThemes(page, 'start-run-menu-blocked', { menu: page.getByTestId('start-run-menu'), 'broken-flow, disabled': item });

  // The runs page of the workflow, and its editor: the button itself.
  for (const [hash, ready] of [
    ['#/runs/broken-flow', page.getByRole('heading', { name: 'Runs', level: 1 })],
    ['#/workflow/broken-flow', page.getByTestId('step-node-first')],
  ] as const) {
    await page.goto(`${served.url}/${hash}`);
    await expect(ready).toBeVisible();
    const button = page.getByTestId('action-start-run');
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('title', reason);
    await expect(button).toHaveAccessibleDescription(reason);
    await button.click({ force: true });
    await expect(page.getByTestId('dialog-start-run')).toHaveCount(0);
  }
  await shootBothThemes(page, 'start-run-disabled', { 'start a run': page.getByTestId('action-start-run') });
  // A workflow without errors still starts from its editor.
  await page.goto(`${served.url}/#/workflow/debug-demo`);
  await expect(page.getByTestId('action-start-run')).toBeEnabled();
  await page.getByTestId('action-start-run').click();
  await expect(page.getByTestId('dialog-start-run')).toBeVisible();
});
