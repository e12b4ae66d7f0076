// Acting on runs from the app, in Debian's chromium against the real `weft serve` on a copy of
// examples/: a run of research-review started from the start form, its review task answered from
// the inbox (a rejection with a reason, then an approval) while the API shows the run moving on,
// the engine's refusal shown word for word, and the run-level dialogs (pause, revise with its
// plan, cancel with its confirmation). Every wait is for a state, never for time.
//
// Over 400 lines: its tests share one served copy of the examples (started once, in beforeAll),
// which costs more than the tests themselves on a busy machine.
import { expect, test, type Page } from '@playwright/test';
import { appChrome, exampleWorkspace, shootBothThemes, startServe, weft, type Served, type Workspace, startFakeApi } from './weft-serve.ts';

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

interface RunView {
  run: { state: string; inputRevision: number; input: unknown; key: string | null; priority: number };
  steps: { id: string; state: string; attempts: { output?: unknown }[] }[];
  tasks: { stepId: string; assignee: string | null }[];
}

async function getRun(runId: string): Promise<RunView> {
  const response = await fetch(`${served.url}/api/runs/${runId}`, { headers: { authorization: `Bearer ${served.token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as RunView;
}

async function stepState(runId: string, stepId: string): Promise<string | undefined> {
  return (await getRun(runId)).steps.find((s) => s.id === stepId)?.state;
}

/** Starts research-review from the app's start form; the app opens the run; answers its id. */
async function startFromForm(page: Page, topic: string): Promise<string> {
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('action-start-run').click();
  await page.getByTestId('start-workflow-research-review').click();
  const dialog = page.getByTestId('dialog-start-run');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('field-topic').fill(topic);
  await dialog.getByTestId('field-audience').fill('platform engineers');
  await dialog.getByTestId('submit-action').click();
  await expect(page).toHaveURL(/#\/run\//);
  const runId = decodeURIComponent(/#\/run\/([^/?#]+)/.exec(page.url())?.[1] ?? '');
  expect(runId).not.toBe('');
  await expect.poll(() => stepState(runId, 'review')).toBe('waiting');
  return runId;
}

function taskCard(page: Page, runId: string, stepId: string) {
  return page.getByTestId(`task-${runId}-${stepId}`);
}

test('the start form checks the input, offers the last one again, and opens the new run', async ({ page }) => {
  await page.goto(served.address);
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('action-start-run').click();
  await page.getByTestId('start-workflow-research-review').click();
  const dialog = page.getByTestId('dialog-start-run');
  // The form of the input schema: topic required (min 3), maxWords 100..3000, hints from descriptions.
  await expect(dialog).toContainText('what the article is about');
  await dialog.getByTestId('field-topic').fill('ab');
  await dialog.getByTestId('field-maxWords').fill('50');
  await dialog.getByTestId('submit-action').click();
  await expect(dialog.getByTestId('field-topic-error')).toHaveText('at least 3 characters');
  await expect(dialog.getByTestId('field-maxWords-error')).toHaveText('at least 100');
  await dialog.getByTestId('start-priority').fill('2.5');
  await shootBothThemes(page, 'start-run-errors', {
    dialog,
    topic: dialog.getByTestId('field-topic'),
    "topic's error": dialog.getByTestId('field-topic-error'),
    'max words': dialog.getByTestId('field-maxWords'),
    "max words' error": dialog.getByTestId('field-maxWords-error'),
    priority: dialog.getByTestId('start-priority'),
    start: dialog.getByTestId('submit-action'),
  });
  await expect(dialog).toContainText('a whole number');
  await dialog.getByTestId('start-priority').fill('3');
  await dialog.getByTestId('field-topic').fill('idempotency keys');
  await dialog.getByTestId('field-maxWords').fill('600');
  await dialog.getByTestId('start-key').fill('article-42');
  await dialog.getByTestId('submit-action').click();
  await expect(page).toHaveURL(/#\/run\//);
  const runId = decodeURIComponent(/#\/run\/([^/?#]+)/.exec(page.url())?.[1] ?? '');
  const run = await getRun(runId);
  expect(run.run).toMatchObject({ input: { topic: 'idempotency keys', maxWords: 600 }, key: 'article-42', priority: 3 });

  // The last input comes back, as JSON too; the same key answers the same run.
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('action-start-run').click();
  await page.getByTestId('start-workflow-research-review').click();
  await expect(dialog.getByTestId('field-topic')).toHaveValue('idempotency keys');
  await expect(dialog.getByTestId('field-maxWords')).toHaveValue('600');
  await expect(dialog).toContainText('the input of your last start');
  await shootBothThemes(page, 'start-run-last-input', {
    dialog,
    'last input note': dialog.getByText('the input of your last start'),
    topic: dialog.getByTestId('field-topic'),
    'max words': dialog.getByTestId('field-maxWords'),
    key: dialog.getByTestId('start-key'),
    start: dialog.getByTestId('submit-action'),
  });
  await dialog.getByTestId('start-input-tab-json').click();
  await expect(dialog.getByTestId('start-input-json')).toContainText('"maxWords": 600');
  await dialog.getByTestId('start-key').fill('article-42');
  await dialog.getByTestId('submit-action').click();
  await expect(page).toHaveURL(new RegExp(`#/run/${runId}$`));
});

test('a review task answered from the inbox: rejected with a reason, the run moves on, then approved', async ({ page }) => {
  await page.goto(served.address);
  const runId = await startFromForm(page, 'durable workflows');
  await page.getByTestId('nav-tasks').click();
  const card = taskCard(page, runId, 'review');
  await expect(card).toContainText('Review article draft');
  await expect(card.getByTestId('task-deadline')).toHaveText(/^\s*1d 23h left|2d 0h left/);
  await card.getByTestId('task-toggle').click();
  // What it is about: the draft the review step was given.
  await expect(card.getByTestId('task-input')).toContainText('Why durable workflows resume instead of repeat');
  await shootBothThemes(page, 'inbox-task-open', {
    ...appChrome(page),
    card,
    deadline: card.getByTestId('task-deadline'),
    draft: card.getByTestId('task-input'),
    approve: card.getByTestId('action-approve'),
    reject: card.getByTestId('action-reject'),
  });

  // A rejection needs a reason; the one given reaches the step's output (and the redraft).
  await card.getByTestId('action-reject').click();
  await card.getByTestId('action-by').fill('ana');
  await card.getByTestId('submit-action').click();
  await expect(card.getByTestId('action-problem')).toContainText('Give a reason');
  await card.getByTestId('action-reason').fill('Cite the idempotency source in the second paragraph.');
  await shootBothThemes(page, 'inbox-reject', {
    ...appChrome(page),
    card,
    by: card.getByTestId('action-by'),
    reason: card.getByTestId('action-reason'),
    send: card.getByTestId('submit-action'),
  });
  await card.getByTestId('submit-action').click();
  await expect(page.getByTestId('task-answered').first()).toContainText('Rejected “Review article draft” (review)');
  await expect(card).toHaveCount(0);

  // The run moved on: review rejected with the reason, the redraft reviewed in rereview.
  await expect.poll(() => stepState(runId, 'rereview')).toBe('waiting');
  const after = await getRun(runId);
  expect(after.steps.find((s) => s.id === 'review')?.state).toBe('rejected');
  expect(JSON.stringify(after.steps.find((s) => s.id === 'review')?.attempts.at(-1)?.output)).toContain('Cite the idempotency source');
  expect(JSON.stringify(after.steps.find((s) => s.id === 'review')?.attempts.at(-1)?.output)).toContain('ana');

  // The new task appears without a reload; approving it ends the run.
  const rereview = taskCard(page, runId, 'rereview');
  await expect(rereview).toBeVisible();
  await rereview.getByTestId('task-toggle').click();
  await rereview.getByTestId('action-approve').click();
  await expect(page.getByTestId('task-answered').first()).toContainText('Approved');
  await expect.poll(async () => (await getRun(runId)).run.state).toBe('succeeded');
  await shootBothThemes(page, 'inbox-answered', { ...appChrome(page), 'answered note': page.getByTestId('task-answered').first() });
});

test('a task answered elsewhere first: the inbox shows the engine’s refusal', async ({ page }) => {
  await page.goto(served.address);
  const runId = await startFromForm(page, 'answered twice');
  await page.getByTestId('nav-tasks').click();
  const card = taskCard(page, runId, 'review');
  await card.getByTestId('task-toggle').click();
  await card.getByTestId('action-reassign').click();
  await card.getByTestId('reassign-to').fill('bo');
  // Someone approves it in a terminal while the form is open.
  const approved = await weft(ws, ['approve', runId, 'review', '--by', 'cli']);
  expect(approved.stderr).toBe('');
  await expect.poll(() => stepState(runId, 'review')).toBe('succeeded');
  // The card being answered stays, marked, when the task leaves the list.
  await expect(card.getByTestId('task-gone')).toBeVisible();
  await expect(card.getByTestId('reassign-to')).toHaveValue('bo');
  await card.getByTestId('submit-action').click();
  const error = card.getByTestId('action-error');
  await expect(error).toBeVisible();
  const refused = await fetch(`${served.url}/api/tasks/${runId}/review`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'reassign', to: 'bo' }),
  });
  expect(refused.status).toBe(409);
  const body = (await refused.json()) as { error: { message: string } };
  await expect(error).toHaveText(body.error.message);
  await shootBothThemes(page, 'inbox-refused', {
    ...appChrome(page),
    card,
    gone: card.getByTestId('task-gone'),
    'reassign to': card.getByTestId('reassign-to'),
    error,
    send: card.getByTestId('submit-action'),
  });
  await card.getByTestId('task-toggle').click();
  await expect(card).toHaveCount(0);
});

test('run dialogs from the inbox: pause and resume, revise with its plan, cancel after a confirmation', async ({ page }) => {
  await page.goto(served.address);
  const runId = await startFromForm(page, 'saga patterns');
  await page.getByTestId('nav-tasks').click();
  const card = taskCard(page, runId, 'review');
  await card.getByTestId('task-toggle').click();
  await card.locator('.task-run summary').click();

  await card.getByTestId('action-pause').click();
  const pause = page.getByTestId('dialog-pause');
  await pause.getByTestId('action-reason').fill('waiting for legal');
  await shootBothThemes(page, 'dialog-pause', { dialog: pause, reason: pause.getByTestId('action-reason'), pause: pause.getByTestId('submit-action') });
  await pause.getByTestId('submit-action').click();
  await expect(pause).toHaveCount(0);
  await expect.poll(async () => (await getRun(runId)).run.state).toBe('paused');
  // Permitted actions follow the run: pause is disabled now and says why, resume is offered.
  await expect(card.getByTestId('action-pause')).toBeDisabled();
  await expect(card.getByTestId('action-pause')).toHaveAttribute('title', /does not permit pause now: the run is paused/);
  await card.getByTestId('action-resume').click();
  await page.getByTestId('dialog-resume').getByTestId('submit-action').click();
  await expect.poll(async () => (await getRun(runId)).run.state).toBe('waiting');

  // Revise: nothing is sent until the plan was previewed for this very input.
  await card.getByTestId('action-revise').click();
  const revise = page.getByTestId('dialog-revise');
  await expect(revise.getByTestId('field-topic')).toHaveValue('saga patterns');
  await revise.getByTestId('field-topic').fill('saga patterns in practice');
  await revise.getByTestId('submit-action').click();
  await expect(revise.getByTestId('action-problem')).toHaveText(/Preview the plan first/);
  await revise.getByTestId('revise-preview').click();
  await expect(revise.getByTestId('plan-research')).toContainText('rerun');
  // draft reads research's output: decided once research has run again.
  await expect(revise.getByTestId('plan-draft')).toContainText('later');
  await expect(revise.getByTestId('plan-draft')).toContainText('after research');
  await shootBothThemes(page, 'dialog-revise-plan', {
    dialog: revise,
    topic: revise.getByTestId('field-topic'),
    preview: revise.getByTestId('revise-preview'),
    "research's plan": revise.getByTestId('plan-research'),
    "draft's plan": revise.getByTestId('plan-draft'),
    revise: revise.getByTestId('submit-action'),
  });
  expect((await getRun(runId)).run.inputRevision).toBe(1);
  await revise.getByTestId('submit-action').click();
  await expect(revise).toHaveCount(0);
  await expect.poll(async () => (await getRun(runId)).run.inputRevision).toBe(2);
  expect((await getRun(runId)).run.input).toEqual({ topic: 'saga patterns in practice', audience: 'platform engineers' });

  // Skip needs an output and a reason; nothing is sent without them.
  await expect.poll(() => stepState(runId, 'review')).toBe('waiting');
  await page.getByTestId('nav-runs').click();
  await page.getByTestId('nav-tasks').click();
  const revised = taskCard(page, runId, 'review');
  await revised.getByTestId('task-toggle').click();
  await revised.locator('.task-run summary').click();
  await expect(revised.getByTestId('action-keep')).toBeDisabled();
  await revised.getByTestId('action-skip').click();
  const skip = page.getByTestId('dialog-skip');
  await skip.getByTestId('submit-action').click();
  await expect(skip.getByTestId('action-problem')).toHaveText(/Give a reason/);
  await skip.getByTestId('action-reason').fill('reviewed on paper');
  await skip.getByTestId('submit-action').click();
  await expect(skip.getByTestId('action-problem')).toHaveText('Give the output.');
  await shootBothThemes(page, 'dialog-skip', { dialog: skip, reason: skip.getByTestId('action-reason'), problem: skip.getByTestId('action-problem'), skip: skip.getByTestId('submit-action') });
  await skip.getByRole('button', { name: 'Cancel' }).click();
  await expect(skip).toHaveCount(0);

  // Fork from the review step with an edited input: a new run, which the app opens.
  await revised.getByTestId('action-fork').click();
  const fork = page.getByTestId('dialog-fork');
  await fork.getByTestId('field-audience').fill('site reliability engineers');
  await shootBothThemes(page, 'dialog-fork', { dialog: fork, audience: fork.getByTestId('field-audience'), fork: fork.getByTestId('submit-action') });
  await fork.getByTestId('submit-action').click();
  await expect(page).toHaveURL(/#\/run\//);
  const forkId = decodeURIComponent(/#\/run\/([^/?#]+)/.exec(page.url())?.[1] ?? '');
  expect(forkId).not.toBe(runId);
  const forked = (await getRun(forkId)) as RunView & { run: { forkOf: unknown } };
  expect(forked.run.forkOf).toEqual({ runId, fromStep: 'review' });
  expect(forked.run.input).toEqual({ topic: 'saga patterns in practice', audience: 'site reliability engineers' });

  // Cancel asks for a confirmation before it sends anything.
  await page.getByTestId('nav-tasks').click();
  const again = taskCard(page, runId, 'review');
  await again.getByTestId('task-toggle').click();
  await again.locator('.task-run summary').click();
  await again.getByTestId('action-cancel').click();
  const cancel = page.getByTestId('dialog-cancel');
  await cancel.getByTestId('action-reason').fill('topic dropped');
  await cancel.getByTestId('submit-action').click();
  await expect(cancel.getByTestId('confirm-panel')).toBeVisible();
  await shootBothThemes(page, 'dialog-cancel-confirm', { dialog: cancel, confirmation: cancel.getByTestId('confirm-panel'), confirm: cancel.getByTestId('confirm-action') });
  expect((await getRun(runId)).run.state).toBe('waiting');
  await cancel.getByTestId('confirm-action').click();
  await expect(cancel).toHaveCount(0);
  await expect.poll(async () => (await getRun(runId)).run.state).toBe('cancelled');
  // The task left the list; the card stays, marked, until it is closed.
  await expect(again.getByTestId('task-gone')).toBeVisible();
  await again.getByTestId('task-toggle').click();
  await expect(again).toHaveCount(0);
});

// The step dialogs belong to the run page (the lead's); here they are mounted alone on a page
// of the real server's origin, so their calls reach the real API with the session's token.
const HARNESS = `
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiClient } from './renderer/api/api-client.ts';
import { setCurrentToken } from './renderer/api/current-token.ts';
import { StepActions } from './renderer/runs/actions/step-actions.tsx';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './renderer/core/query-client.ts';
import './renderer/theme/controls.css';

const q = new URLSearchParams(location.search);
// The token the app's clients are built on, as the session sets it.
setCurrentToken(q.get('token'));
const api = new ApiClient(q.get('token'));
function App() {
  const [detail, setDetail] = useState(null);
  const [done, setDone] = useState([]);
  const load = () => api.run(q.get('run')).then(setDetail);
  useEffect(() => { void load(); }, []);
  if (detail === null) return <p>loading</p>;
  return (
    <div style={{ padding: 24 }}>
      <p data-testid="harness-state">{detail.steps.find((s) => s.id === q.get('step')).state}</p>
      <StepActions detail={detail} stepId={q.get('step')} onDone={(r, a) => { setDone((d) => [...d, a + ':' + r.state]); void load(); }} />
      <p data-testid="harness-done">{done.join(' ')}</p>
    </div>
  );
}
// The app's query client, as the app provides it: the dialogs read the workflow file's field order through it.
createRoot(document.getElementById('root')).render(<QueryClientProvider client={queryClient}><App /></QueryClientProvider>);
`;

async function openHarness(page: Page, runId: string, stepId: string): Promise<void> {
  const { build } = await import('esbuild');
  const { readFileSync } = await import('node:fs');
  const out = await build({
    stdin: { contents: HARNESS, resolveDir: process.cwd(), loader: 'tsx', sourcefile: 'harness.tsx' },
    bundle: true,
    write: false,
    format: 'iife',
    outdir: 'harness-out',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  const js = out.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const css = ['tokens.css', 'app.css'].map((f) => readFileSync(`renderer/theme/${f}`, 'utf8')).join('\n') + (out.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '');
  const files: Record<string, { type: string; body: string }> = {
    '/harness/': { type: 'text/html', body: '<!doctype html><html data-theme="light"><head><link rel="stylesheet" href="/harness/app.css"></head><body><div id="root"></div><script src="/harness/app.js"></script></body></html>' },
    '/harness/app.css': { type: 'text/css', body: css },
    '/harness/app.js': { type: 'text/javascript', body: js },
  };
  await page.route(`${served.url}/harness/**`, (route) => {
    const file = files[new URL(route.request().url()).pathname];
    return file === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ status: 200, contentType: file.type, body: file.body });
  });
  await page.goto(`${served.url}/harness/?run=${runId}&step=${stepId}&token=${served.token}`);
}

test('step dialogs on a failed external write: retry asks for a confirmation, skip settles it with an output', async ({ page }) => {
  const api = await startFakeApi();
  try {
    // A stale base revision: the records API refuses the write (412), and the run fails there.
    const input = { apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 2, recipient: 'R2' };
    const result = await weft(ws, ['run', 'record-update.weft.json', '--input', JSON.stringify(input), '--json']);
    const { runId } = JSON.parse(result.stdout) as { runId: string };
    await expect.poll(() => stepState(runId, 'write')).toBe('failed');
    const attemptsBefore = (await getRun(runId)).steps.find((s) => s.id === 'write')?.attempts.length ?? 0;
    await openHarness(page, runId, 'write');
    await expect(page.getByTestId('harness-state')).toHaveText('failed');
    await expect(page.getByTestId('action-approve')).toHaveCount(0);
    await expect(page.getByTestId('action-resolve')).toBeDisabled();

    // Retry: the write is external, so a confirmation comes first; the new attempt is real.
    await page.getByTestId('action-retry').click();
    const retry = page.getByTestId('dialog-retry');
    await retry.getByTestId('retry-edit').check();
    await expect(retry.getByTestId('retry-input')).toContainText('"baseRevision"');
    await retry.getByTestId('action-reason').fill('the records API was redeployed');
    await retry.getByTestId('submit-action').click();
    await expect(retry.getByTestId('confirm-panel')).toContainText('write has external effects');
    await shootBothThemes(page, 'dialog-retry-confirm', {
      dialog: retry,
      input: retry.getByTestId('retry-input'),
      reason: retry.getByTestId('action-reason'),
      confirmation: retry.getByTestId('confirm-panel'),
      confirm: retry.getByTestId('confirm-action'),
    });
    expect((await getRun(runId)).steps.find((s) => s.id === 'write')?.attempts.length).toBe(attemptsBefore);
    await retry.getByTestId('confirm-action').click();
    await expect(retry).toHaveCount(0);
    await expect(page.getByTestId('harness-done')).toContainText('retry:');
    await expect.poll(async () => (await getRun(runId)).steps.find((s) => s.id === 'write')?.attempts.length ?? 0).toBeGreaterThan(attemptsBefore);
    await expect.poll(() => stepState(runId, 'write')).toBe('failed');

    // Skip with an output that is not JSON is held back; with one, the engine settles the step.
    await page.reload();
    await page.getByTestId('action-skip').click();
    const skip = page.getByTestId('dialog-skip');
    await skip.getByTestId('action-reason').fill('changed by hand in the records console');
    await skip.locator('[data-testid="skip-output-json"] .cm-content').fill('{"status": ');
    await skip.getByTestId('submit-action').click();
    await expect(skip.getByTestId('action-problem')).toContainText('not valid JSON');
    await skip.locator('[data-testid="skip-output-json"] .cm-content').fill('{"status": 200, "body": {"id": "A17", "revision": 4}}');
    await shootBothThemes(page, 'dialog-skip-output', {
      dialog: skip,
      reason: skip.getByTestId('action-reason'),
      output: skip.getByTestId('skip-output-json'),
      skip: skip.getByTestId('submit-action'),
    });
    await skip.getByTestId('submit-action').click();
    await expect(page.getByTestId('harness-done')).toContainText('skip:');
    await expect(skip).toHaveCount(0);
    await expect.poll(() => stepState(runId, 'write')).toBe('succeeded');
    // The output given is in the log, with who and why.
    const events = await (await fetch(`${served.url}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${served.token}` } })).text();
    expect(events).toContain('"revision":4');
    expect(events).toContain('changed by hand in the records console');
  } finally {
    await api.close();
  }
});
