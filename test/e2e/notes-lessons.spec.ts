// Notes and lessons in the app, in Debian's chromium against the real `weft serve` on a copy of
// examples/: a note added on a settled run's page is in the run's log and shows as a note marker
// on its timeline and in the run's notes; a lesson recorded from the run page lands in the
// lessons file beside the workflow; in the editor, record-update's example lessons show as a badge
// on their steps and atop the step's inspector, and a save that changes such a step asks first,
// with the lessons readable. Screenshots in both themes. Every wait is for a state.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, shootBothThemes, startServe, weft, type Served, type Workspace } from './weft-serve.ts';

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';
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

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${served.url}${path}`, { method, headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  expect(r.status, await r.clone().text()).toBeLessThan(300);
  return r.json();
}

/** A research-review run, approved so that it has settled. */
async function settledRun(): Promise<string> {
  const { runId } = (await api('POST', '/api/runs', { workflow: 'research-review', input: { topic: 'durable agent runs', audience: 'platform engineers' } })) as { runId: string };
  await expect.poll(async () => ((await api('GET', '/api/runs/' + runId)) as { steps: { id: string; state: string }[] }).steps.find((s) => s.id === 'review')?.state).toBe('waiting');
  await api('POST', `/api/tasks/${runId}/review`, { action: 'approve', by: 'ed' });
  await expect.poll(async () => ((await api('GET', '/api/runs/' + runId)) as { run: { state: string } }).run.state).toBe('succeeded');
  return runId;
}

async function openRun(page: Page, runId: string): Promise<void> {
  await page.goto(`${served.url}/#/run/${runId}`);
  await expect(page.getByTestId('run-view')).toBeVisible();
}

test('a note added on the run page is in the log and on the timeline', async ({ page }) => {
  const runId = await settledRun();
  await page.goto(served.address);
  await openRun(page, runId);
  await page.getByTestId('run-tab-run').click();
  const notes = page.getByTestId('run-notes');
  await expect(notes).toContainText('No notes on this run yet.');
  await notes.getByTestId('add-note').click();
  const dialog = page.getByTestId('dialog-note');
  await dialog.getByTestId('submit-action').click();
  await expect(dialog.getByTestId('action-problem')).toHaveText('Write the note first.');
  await dialog.getByTestId('note-text').fill('The reviewer approved after checking the sources by phone; see ticket OPS-12.');
  await dialog.getByTestId('action-by').fill('ana');
  await shootBothThemes(page, 'note-dialog', { dialog });
  await dialog.getByTestId('submit-action').click();
  await expect(dialog).toHaveCount(0);

  const log = (await api('GET', `/api/runs/${runId}/events?after=0&limit=1000`)) as { events: { type: string; step: string | null; data: { text?: string; by?: string } }[] };
  expect(log.events.filter((e) => e.type === 'note_added').map((e) => [e.step, e.data.by, e.data.text])).toEqual([[null, 'ana', 'The reviewer approved after checking the sources by phone; see ticket OPS-12.']]);
  const marker = page.locator('[data-testid="timeline-marker"][data-kind="note"]');
  await expect(marker).toHaveCount(1);
  await expect(marker).toHaveAttribute('aria-label', 'note by ana: The reviewer approved after checking the sources by phone; see ticket OPS-12.');
  await expect(page.getByTestId('timeline-legend')).toContainText('note');
  await expect(notes.locator('.run-note')).toHaveCount(1);
  await expect(notes).toContainText('ana');
  await notes.scrollIntoViewIfNeeded(); // the run's notes follow its input in the scrolling panel
  await shootBothThemes(page, 'note-on-timeline', { marker, notes });

  // A note on a step, from its detail: on the step's row.
  await page.getByTestId('step-node-review').click();
  await page.getByTestId('run-tab-step').click();
  await page.getByTestId('step-notes-review').getByTestId('add-note').click();
  await page.getByTestId('dialog-note').getByTestId('note-text').fill('Ed approved from his phone.');
  await page.getByTestId('dialog-note').getByTestId('submit-action').click();
  await expect(page.getByTestId('step-notes-review').locator('.run-note')).toHaveCount(1);
  await expect(page.locator('.tl-row[data-step="review"] [data-testid="timeline-marker"][data-kind="note"]')).toHaveCount(1);
});

test('a lesson recorded from the run page lands beside the workflow', async ({ page }) => {
  const runId = await settledRun();
  await page.goto(served.address);
  await openRun(page, runId);
  await page.getByTestId('run-tab-run').click();
  await page.getByTestId('record-lesson').click();
  const dialog = page.getByTestId('dialog-lesson');
  await dialog.getByTestId('lesson-step-review').check();
  await dialog.getByTestId('lesson-failure-mode').fill('The reviewer approved a draft whose sources were not listed.');
  await dialog.getByTestId('lesson-changed').fill('The draft step now lists its sources under the text.');
  await shootBothThemes(page, 'lesson-dialog', { dialog });
  await dialog.getByTestId('submit-action').click();
  await expect(page.getByTestId('lesson-recorded')).toHaveText('Lesson L1 recorded in research-review.lessons.json');
  const file = JSON.parse(readFileSync(join(ws.dir, 'research-review.lessons.json'), 'utf8')) as { lessons: { runId: string; steps: string[]; by: string }[] };
  expect(file.lessons).toMatchObject([{ runId, steps: ['review'], by: 'e2e' }]);
  expect((await weft(ws, ['lesson', 'list', 'research-review'])).stdout).toContain('The reviewer approved a draft whose sources were not listed.');
});

test('the editor shows lessons on their steps and asks before a save that changes one', async ({ page }) => {
  await page.goto(served.address);
  await page.getByTestId('workflow-row-record-update').click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  const badge = page.getByTestId('step-lessons-write');
  await expect(badge).toHaveText('2');
  await expect(page.getByTestId('step-lessons-verify')).toHaveText('1');
  await expect(page.getByTestId('step-lessons-validate')).toHaveCount(0);
  await page.getByTestId('step-node-write').click();
  const panel = page.getByTestId('step-lessons-panel');
  await expect(panel).toContainText('2 lessons concern this step');
  await expect(panel.getByTestId('lesson-L1')).toContainText('replica was behind');
  await expect(panel.getByTestId('lesson-L2')).toContainText('idempotencyKey is derived from the request');
  await shootBothThemes(page, 'editor-step-lessons', { badge, panel });
  await page.getByTestId('step-node-write').screenshot({ path: 'test-results/screenshots/editor-step-lessons-node.png' });

  await page.getByTestId('field-name').fill('Write the field');
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  await page.keyboard.press(`${MOD}+s`);
  const ask = page.getByTestId('confirm-dialog');
  await expect(ask).toContainText('2 lessons concern this step');
  await expect(ask.getByTestId('confirm-body')).toContainText('L2 (write): An operator retried an unknown write by hand');
  await shootBothThemes(page, 'editor-save-lessons', { ask });
  await ask.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('save-status')).toContainText('Not saved: review the lessons');
  expect(readFileSync(join(ws.dir, 'record-update.weft.json'), 'utf8')).not.toContain('Write the field');
  await page.keyboard.press(`${MOD}+s`);
  await page.getByTestId('confirm-dialog').getByTestId('confirm-ok').click();
  await expect(page.getByTestId('save-status')).toContainText('Saved v');
  expect(readFileSync(join(ws.dir, 'record-update.weft.json'), 'utf8')).toContain('Write the field');
});
