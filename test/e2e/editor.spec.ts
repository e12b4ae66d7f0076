// The workflow editor in Debian's chromium against the real `weft serve` on a copy of examples/:
// drawing, the inspector, live validation, saving and reloading, undo and redo, copy and paste
// between workflows, export and import, versions and the diff, data handoffs; with screenshots of
// each screen in both themes under test-results/screenshots/.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, openEditor as openServedEditor, REPO_ROOT, shootBothThemes, startServe, typeCode, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  copyFileSync(join(REPO_ROOT, 'test/fixtures/handoffs/one-branch.weft.json'), join(ws.dir, 'one-branch.weft.json'));
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

/** The canvas's transform (pan and zoom) as the page draws it. */
const viewportTransform = (page: Page): Promise<string> => page.evaluate(`document.querySelector('.react-flow__viewport')?.getAttribute('style') ?? ''`);

/**
 * Waits for a pan or zoom animation to end: the transform differs from `before` and is the same
 * on two animation frames in a row (the animation moves it on every frame while it runs). The
 * frames are watched in the page (a promise it resolves; the app's CSP forbids string predicates).
 */
async function viewportSettled(page: Page, before: string): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    let last;
    const frame = () => {
      const now = document.querySelector('.react-flow__viewport')?.getAttribute('style') ?? '';
      if (now !== ${JSON.stringify(before)} && now === last) resolve(now);
      else {
        last = now;
        requestAnimationFrame(frame);
      }
    };
    requestAnimationFrame(frame);
  })`);
}

/** The example's steps on the canvas, by id: none may overlap another or leave the window. */
function stepNodes(page: Page, ids: readonly string[]): Record<string, Locator> {
  return Object.fromEntries(ids.map((id) => [`step ${id}`, node(page, id)]));
}

const openEditor = (page: Page, id: string): Promise<void> => openServedEditor(page, served, id);

const node = (page: Page, id: string): Locator => page.getByTestId(`step-node-${id}`);
const fileText = (id: string): string => readFileSync(join(ws.dir, `${id}.weft.json`), 'utf8');

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${served.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

async function createWorkflow(page: Page, id: string): Promise<void> {
  await page.goto(served.address);
  await page.getByTestId('new-workflow').click();
  await page.getByTestId('new-workflow-id').fill(id);
  await page.getByTestId('new-workflow-create').click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(node(page, 'start')).toBeVisible();
}

/** Drags from the source handle of one node to the target handle of another, as a person does. */
async function connect(page: Page, from: string, to: string): Promise<void> {
  const source = await node(page, from).locator('.react-flow__handle.source').boundingBox();
  const target = await node(page, to).locator('.react-flow__handle.target').boundingBox();
  if (source === null || target === null) throw new Error(`no handles on ${from} or ${to}`);
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
}

test('draws a workflow from the palette, connects it with an outcome and a condition, and saves it', async ({ page }) => {
  await createWorkflow(page, 'drawn');
  // Zoom out so the three new steps sit apart, whatever the width of the window.
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
  const before = await viewportTransform(page);
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  await viewportSettled(page, before);
  const canvas = page.getByTestId('editor-canvas');
  const box = await canvas.boundingBox();
  if (box === null) throw new Error('no canvas');
  await page.getByTestId('palette-http').dragTo(canvas, { targetPosition: { x: 120, y: 70 } });
  await page.getByTestId('palette-human').dragTo(canvas, { targetPosition: { x: 360, y: 170 } });
  await page.getByTestId('palette-end').dragTo(canvas, { targetPosition: { x: 600, y: 70 } });
  for (const id of ['http', 'human', 'end']) await expect(node(page, id)).toBeVisible();

  // Only the outcomes an http step can produce are offered.
  await connect(page, 'http', 'human');
  await expect(page.getByTestId('outcome-picker')).toBeVisible();
  await expect(page.getByTestId('outcome-rejected')).toHaveCount(0);
  await page.getByTestId('outcome-succeeded').click();
  await connect(page, 'human', 'end');
  await expect(page.getByTestId('outcome-rejected')).toBeVisible();
  await page.getByTestId('outcome-rejected').click();

  // The new edge is selected: its condition is set in the inspector.
  await expect(page.getByTestId('edge-inspector')).toBeVisible();
  await typeCode(page, 'field-when', 'output.reason != ""');
  await expect(page.getByTestId('edge-label-human_end')).toContainText('rejected');
  await expect(page.getByTestId('edge-label-human_end')).toContainText('output.reason');

  await page.keyboard.press(`${MOD}+s`);
  await expect(page.getByTestId('save-status')).toContainText('Saved v1');
  const saved = JSON.parse(fileText('drawn')) as { steps: { id: string; kind: string }[]; edges: { from: string; to: string; on?: string; when?: string }[]; layout: Record<string, unknown> };
  expect(saved.steps.map((s) => `${s.id}:${s.kind}`)).toEqual(['start:transform', 'done:end', 'http:http', 'human:human', 'end:end']);
  expect(saved.edges).toContainEqual({ id: 'http_human', from: 'http', to: 'human' });
  expect(saved.edges).toContainEqual({ id: 'human_end', from: 'human', to: 'end', on: 'rejected', when: 'output.reason != ""' });
  expect(Object.keys(saved.layout)).toEqual(['start', 'done', 'http', 'human', 'end']);
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  await shootBothThemes(page, 'editor-drawn', {
    ...appChrome(page),
    ...stepNodes(page, ['start', 'done', 'http', 'human', 'end']),
    "the condition's label": page.getByTestId('edge-label-human_end'),
    'save status': page.getByTestId('save-status'),
  });
});

test('a problem appears on its node and in Problems, leads to its field, and goes when fixed', async ({ page }) => {
  await openEditor(page, 'order-payment');
  await expect(page.getByTestId('problems-none')).toHaveText('No problems');
  await node(page, 'check_payment').click();
  await expect(page.getByTestId('step-inspector')).toBeVisible();
  await typeCode(page, 'field-input', 'steps.no_such_step.output.data');

  const row = page.locator('[data-testid="problem-row"][data-code="unknown-step-reference"]');
  await expect(row).toHaveAttribute('data-step', 'check_payment');
  await expect(node(page, 'check_payment').locator('.node-problem-error')).toBeVisible();
  await expect(node(page, 'fulfil').locator('.node-problem-error')).toHaveCount(0);
  await shootBothThemes(page, 'editor-problems', {
    ...appChrome(page),
    'check_payment with its problem': node(page, 'check_payment'),
    'the problem': row,
    'the field with the problem': page.getByTestId('field-input-input'),
  });

  // From the problem to its field: select another step first, then activate the row.
  await node(page, 'fulfil').click();
  await row.click();
  await expect(page.getByTestId('step-inspector')).toBeVisible();
  await expect(page.getByTestId('field-input-input')).toBeFocused();

  await typeCode(page, 'field-input', 'steps.await_payment.output.data');
  await expect(page.getByTestId('problems-none')).toHaveText('No problems');
  await expect(node(page, 'check_payment').locator('.node-problem-error')).toHaveCount(0);
});

test('saves, reloads as saved, and undoes and redoes every edit', async ({ page }) => {
  await createWorkflow(page, 'saved-flow');
  await page.getByTestId('field-name').fill('Saved flow');
  // Leave the field, so the keys below go to the editor, not to the text box.
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  await page.keyboard.press('n');
  await expect(page.getByTestId('palette-popover')).toBeVisible();
  await page.keyboard.type('trans');
  await page.keyboard.press('Enter');
  await expect(node(page, 'transform')).toBeVisible();
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });

  await page.keyboard.press(`${MOD}+z`);
  await expect(node(page, 'transform')).toHaveCount(0);
  await page.keyboard.press(`${MOD}+z`);
  await expect(page.getByTestId('field-name')).toHaveValue(/^(?!Saved flow)/);
  await page.keyboard.press(`${MOD}+Shift+z`);
  await expect(page.getByTestId('field-name')).toHaveValue('Saved flow');
  await page.keyboard.press(`${MOD}+Shift+z`);
  await expect(node(page, 'transform')).toBeVisible();

  await page.getByTestId('save').click();
  await expect(page.getByTestId('save-status')).toContainText('Saved v1');
  await page.reload();
  await expect(node(page, 'transform')).toBeVisible();
  await expect(page.getByTestId('field-name')).toHaveValue('Saved flow');
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  // Saving again without a change writes the same bytes.
  const before = fileText('saved-flow');
  await page.keyboard.press(`${MOD}+s`);
  await expect(page.getByTestId('save-status')).toContainText('No changes');
  expect(fileText('saved-flow')).toBe(before);
});

test('copies two steps from one workflow and pastes them, with their edge, into another', async ({ page }) => {
  await openEditor(page, 'order-payment');
  // A box drawn with Shift around the two steps selects them both.
  const a = await node(page, 'create_order').boundingBox();
  const b = await node(page, 'await_payment').boundingBox();
  if (a === null || b === null) throw new Error('steps not drawn');
  await page.keyboard.down('Shift');
  await page.mouse.move(a.x - 8, Math.min(a.y, b.y) - 8);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width + 8, Math.max(a.y + a.height, b.y + b.height) + 8, { steps: 10 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await expect(page.getByTestId('selection-summary')).toContainText('2 steps');
  await node(page, 'fulfil').click();
  await node(page, 'create_order').click();
  await node(page, 'await_payment').click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection-summary')).toContainText('2');
  await page.keyboard.press(`${MOD}+c`);

  await page.getByRole('button', { name: 'Workflows' }).first().click();
  await page.getByTestId('workflow-row-trip-saga').click();
  await expect(page.getByTestId('editor')).toBeVisible();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  const before = await page.locator('.react-flow__node').count();
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  await page.keyboard.press(`${MOD}+v`);
  await expect(page.locator('.react-flow__node')).toHaveCount(before + 2);
  await expect(node(page, 'create_order')).toBeVisible();
  await expect(node(page, 'await_payment')).toBeVisible();
  await expect(page.getByTestId('rf__edge-order_created')).toHaveCount(1);
  await expect(page.getByTestId('unsaved')).toBeVisible();

  // Pasting again renames what would clash, and keeps the inner edge between the copies.
  await page.keyboard.press(`${MOD}+v`);
  await expect(node(page, 'create_order_2')).toBeVisible();
  await expect(page.getByTestId('rf__edge-order_created_2')).toHaveCount(1);

  // The pasted copies are selected: Delete removes them with their edge; duplicate copies in place.
  await page.keyboard.press('Delete');
  await expect(node(page, 'create_order_2')).toHaveCount(0);
  await expect(page.getByTestId('rf__edge-order_created_2')).toHaveCount(0);
  await node(page, 'create_order').click();
  await page.keyboard.press(`${MOD}+d`);
  await expect(node(page, 'create_order_2')).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(before + 3);
});

test('auto-layout moves every step in one undoable step', async ({ page }) => {
  await openEditor(page, 'trip-saga');
  const first = await page.locator('.react-flow__node').first().boundingBox();
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('l');
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await expect.poll(() => page.locator('.react-flow__node').first().boundingBox()).not.toEqual(first);
  await page.keyboard.press(`${MOD}+z`);
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  await page.keyboard.press('f');
  // Fitted again (an animation): back where it was, to the pixel.
  await expect.poll(() => page.locator('.react-flow__node').first().boundingBox()).toEqual(first);
});

test('exports a file and imports it back byte for byte', async ({ page }) => {
  await openEditor(page, 'research-review');
  const onDisk = fileText('research-review');
  await page.getByTestId('file-menu').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('menu-export').click()]);
  expect(download.suggestedFilename()).toBe('research-review.weft.json');
  const exportedPath = await download.path();
  const exported = readFileSync(exportedPath, 'utf8');
  expect(exported).toBe(onDisk);

  await page.getByTestId('file-menu').click();
  await page.getByTestId('menu-delete').click();
  // Delete asks in the app's own dialog (renderer/editor/file-actions.ts).
  await expect(page.getByTestId('confirm-dialog')).toContainText('Delete research-review.weft.json?');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await expect(page.getByTestId('workflow-row-research-review')).toHaveCount(0);

  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('import-workflow').click()]);
  await chooser.setFiles(exportedPath);
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  expect(fileText('research-review')).toBe(exported);
});

test('editing a version that has run saves version N+1, and the diff lists exactly the change', async ({ page }) => {
  await createWorkflow(page, 'versioned');
  const run = await api('POST', '/api/runs', { workflow: 'versioned', input: {} });
  expect(run.status).toBe(201);
  await page.reload();
  await node(page, 'start').click();
  await page.getByTestId('field-name').fill('Pass the input on');
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  await page.getByTestId('save').click();
  await expect(page.getByTestId('save-status')).toContainText('Saved as v2');
  await expect(page.getByTestId('editor-version')).toHaveText('v2');
  expect((JSON.parse(fileText('versioned')) as { version: number }).version).toBe(2);

  await page.getByTestId('tab-history').click();
  await expect(page.getByTestId('version-1-runs')).toHaveText('1');
  await expect(page.getByTestId('version-2-runs')).toHaveText('0');
  await page.getByTestId('compare-1').click();
  await expect(page.getByTestId('diff-view')).toBeVisible();
  await expect(page.getByTestId('diff-item')).toHaveText(['~step start: meta']);
  await page.getByTestId('diff-item').click();
  await shootBothThemes(page, 'editor-diff', { ...appChrome(page), diff: page.getByTestId('diff-view'), 'the change': page.getByTestId('diff-item') });
  await page.getByTestId('diff-overlay').click();
  await expect(page.getByTestId('diff-canvas')).toHaveCount(1);
  await page.getByTestId('diff-close').click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
});

test('the handoffs of a step name the branch a field may not come from', async ({ page }) => {
  await openEditor(page, 'one-branch');
  await node(page, 'report').click();
  const flagged = page.locator('[data-testid="handoff-read"][data-flagged="true"]');
  await expect(flagged.first()).toBeVisible();
  await expect(page.getByTestId('handoffs')).toContainText('quick_estimate');
  await page.getByTestId('handoffs').scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'editor-handoffs', {
    ...appChrome(page),
    report: node(page, 'report'),
    handoffs: page.getByTestId('handoffs'),
    'the flagged read': flagged.first(),
  });
});

test('unsaved changes: leaving asks first, and a draft survives a reload and is offered back', async ({ page }) => {
  await openEditor(page, 'record-update');
  await page.getByTestId('field-name').fill('Record update, drafted');
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  await expect(page.getByTestId('unsaved')).toBeVisible();

  // Going to another page asks in the app's dialog; staying keeps the editor with the change.
  await page.getByTestId('nav-runs').click();
  await expect(page.getByTestId('confirm-body')).toContainText('unsaved changes');
  await page.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('editor')).toBeVisible();

  await expect.poll(() => page.evaluate(`Object.keys(localStorage).some((k) => k.startsWith('weft.draft:') && k.endsWith(':record-update'))`)).toBe(true);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await expect(page.getByTestId('draft-banner')).toBeVisible();
  await expect(page.getByTestId('field-name')).toHaveValue(/^(?!Record update, drafted)/);
  await page.getByTestId('draft-restore').click();
  await expect(page.getByTestId('field-name')).toHaveValue('Record update, drafted');
  await expect(page.getByTestId('unsaved')).toBeVisible();
  // The file on disk is untouched until a save.
  expect(fileText('record-update')).not.toContain('Record update, drafted');
});

test('the editor with an example open, and its keyboard cheat sheet', async ({ page }) => {
  await openEditor(page, 'order-payment');
  const { steps } = JSON.parse(fileText('order-payment')) as { steps: { id: string }[] };
  await shootBothThemes(page, 'editor-order-payment', { ...appChrome(page), ...stepNodes(page, steps.map((s) => s.id)) });
  await page.keyboard.press('?');
  await expect(page.getByTestId('cheat-sheet')).toBeVisible();
  await expect(page.getByTestId('cheat-sheet')).toContainText('Undo');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cheat-sheet')).toHaveCount(0);
});
