// Acting on runs from the app, in Debian's chromium against the real `weft serve` on a copy of
// examples/: a run of research-review started from the start form, its review task answered from
// the inbox (a rejection with a reason, then an approval) while the API shows the run moving on,
// the engine's refusal shown word for word, and the run-level dialogs (pause, revise with its
// plan, cancel with its confirmation). Every wait is for a state, never for time.
import { expect, test, type Page } from '@playwright/test';
import { exampleWorkspace, startServe, weft, type Served, type Workspace } from './weft-serve.ts';

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

async function shoot(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(`localStorage.setItem('weft.theme', '${theme}'); document.documentElement.dataset.theme = '${theme}'`);
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png` });
  }
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
  await shoot(page, 'start-run-errors');
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
  await shoot(page, 'start-run-last-input');
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
  await shoot(page, 'inbox-task-open');

  // A rejection needs a reason; the one given reaches the step's output (and the redraft).
  await card.getByTestId('action-reject').click();
  await card.getByTestId('action-by').fill('ana');
  await card.getByTestId('submit-action').click();
  await expect(card.getByTestId('action-problem')).toContainText('Give a reason');
  await card.getByTestId('action-reason').fill('Cite the idempotency source in the second paragraph.');
  await shoot(page, 'inbox-reject');
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
  await shoot(page, 'inbox-answered');
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
  await shoot(page, 'inbox-refused');
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
  await shoot(page, 'dialog-pause');
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
  await shoot(page, 'dialog-revise-plan');
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
  await shoot(page, 'dialog-skip');
  await skip.getByRole('button', { name: 'Cancel' }).click();
  await expect(skip).toHaveCount(0);

  // Fork from the review step with an edited input: a new run, which the app opens.
  await revised.getByTestId('action-fork').click();
  const fork = page.getByTestId('dialog-fork');
  await fork.getByTestId('field-audience').fill('site reliability engineers');
  await shoot(page, 'dialog-fork');
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
  await shoot(page, 'dialog-cancel-confirm');
  expect((await getRun(runId)).run.state).toBe('waiting');
  await cancel.getByTestId('confirm-action').click();
  await expect(cancel).toHaveCount(0);
  await expect.poll(async () => (await getRun(runId)).run.state).toBe('cancelled');
  // The task left the list; the card stays, marked, until it is closed.
  await expect(again.getByTestId('task-gone')).toBeVisible();
  await again.getByTestId('task-toggle').click();
  await expect(again).toHaveCount(0);
});
