// The editor's and the workspace's rough edges of issue 21 (point 7), in Debian's chromium against
// the real `weft serve` on a copy of examples/: the version diff shows each changed field's old and
// new value and picks the step on the graph; a workspace file that does not parse opens on its
// error; Back with unsaved changes asks in the app's dialog; import asks in the user's words and
// lists every shape error; the new-workflow templates are scannable. Screenshots in both themes.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, shootBothThemes, startServe, type Served, type Workspace } from './weft-serve.ts';

const BROKEN = ['{', '  "format": "weft/v1",', '  "id": "broken",', '  "steps": [', '    { "id": "a", "kind": "end" },', '  ],', '  "edges": []', '}', ''].join('\n');
const MISSHAPEN = JSON.stringify({ format: 'weft/v1', id: 'misshapen', version: 1, steps: [{ id: 'a', kind: 'end' }, { id: 'b', kind: 'teleport' }], edges: [] }, null, 2);

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  // A file with a JSON syntax error (a trailing comma), and one that is JSON but not a workflow's shape.
  writeFileSync(join(ws.dir, 'broken.weft.json'), BROKEN);
  writeFileSync(join(ws.dir, 'misshapen.weft.json'), MISSHAPEN);
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

const node = (page: Page, id: string): Locator => page.getByTestId(`step-node-${id}`);

async function openEditor(page: Page, id: string): Promise<void> {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.getByTestId(`workflow-row-${id}`).click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(node(page, 'start').or(page.locator('.react-flow__node').first())).toBeVisible();
}

test("the diff of unsaved changes shows each field's old and new value, and picking it selects the step", async ({ page }) => {
  await openEditor(page, 'agent-escalation');
  await node(page, 'approve').click();
  await page.getByTestId('field-config.title').locator('.cm-content').fill('Approve the refund');
  await page.getByTestId('field-name').fill('Approve');
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  await expect(node(page, 'approve')).not.toHaveAttribute('data-selected', 'true');

  await page.getByTestId('tab-history').click();
  await page.getByTestId('compare-unsaved').click();
  await expect(page.getByTestId('diff-view')).toBeVisible();
  const entry = page.getByTestId('diff-item');
  await expect(entry).toHaveText(['~step approve: config, meta']);
  const field = (path: string) => page.locator(`[data-testid="diff-field"][data-path="${path}"]`);
  await expect(page.locator('[data-testid="diff-field"]')).toHaveCount(2);
  await expect(field('config.title').getByTestId('diff-old')).toHaveText('− "Approve refund proposal"');
  await expect(field('config.title').getByTestId('diff-new')).toHaveText('+ "Approve the refund"');
  await expect(field('name').getByTestId('diff-old')).toHaveText('− "Approve refund"');
  await expect(field('name').getByTestId('diff-new')).toHaveText('+ "Approve"');

  await entry.click();
  const inDiff = page.getByTestId('diff-canvas').getByTestId('step-node-approve');
  await expect(inDiff).toHaveCount(2);
  for (const side of await inDiff.all()) await expect(side).toHaveAttribute('data-selected', 'true');
  await shootBothThemes(page, 'editor-diff-fields', { ...appChrome(page), changes: page.getByTestId('diff-list'), 'the old and new title': field('config.title') });

  await page.getByTestId('diff-close').click();
  await expect(node(page, 'approve')).toHaveAttribute('data-selected', 'true');
  await expect(page.getByTestId('field-id')).toHaveValue('approve');
});

test('a workspace file that does not parse opens on its error, located and highlighted', async ({ page }) => {
  await page.goto(served.address);
  const row = page.getByTestId('workflow-row-broken.weft.json');
  await expect(row).toContainText('1 error');
  await row.click();
  await expect(page.getByTestId('file-source')).toBeVisible();
  const finding = page.getByTestId('source-finding');
  await expect(finding).toHaveCount(1);
  await expect(finding.getByTestId('source-where')).toHaveText('line 6, column 3');
  await expect(finding).toContainText('trailing comma');
  await expect(finding.getByTestId('source-focus-line')).toContainText('6');
  await expect(finding.getByTestId('source-mark')).toHaveText(']');
  await expect(finding.getByTestId('source-excerpt')).toContainText('"kind": "end" },');
  await shootBothThemes(page, 'file-source-syntax', { ...appChrome(page), finding, 'the error': finding.getByTestId('source-mark') });

  await page.goBack();
  const shape = page.getByTestId('workflow-row-misshapen.weft.json');
  await shape.click();
  const kind = page.locator('[data-testid="source-finding"]').filter({ hasText: 'teleport' });
  await expect(kind.getByTestId('source-where')).toHaveText('line 12, column 15');
  await expect(kind.getByTestId('source-mark')).toHaveText('"teleport"');
  await shootBothThemes(page, 'file-source-shape', { ...appChrome(page), finding: kind.first() });
});

test("Back with unsaved changes asks in the app's dialog: Stay keeps the editor, Leave goes; the token stays out of the address", async ({ page }) => {
  let native = 0;
  page.on('dialog', (dialog) => {
    native++;
    void dialog.dismiss();
  });
  await openEditor(page, 'record-update');
  expect(page.url()).not.toContain('token=');
  await page.getByTestId('field-name').fill('Record update, changed');
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  await expect(page.getByTestId('unsaved')).toBeVisible();

  await page.evaluate('history.back()');
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-body')).toContainText('unsaved changes');
  await expect(dialog.getByTestId('confirm-cancel')).toHaveText('Stay');
  await expect(dialog.getByTestId('confirm-cancel')).toBeFocused();
  await expect(page).toHaveURL(/#\/workflow\/record-update$/);
  await shootBothThemes(page, 'editor-leave-back', { ...appChrome(page), dialog, stay: dialog.getByTestId('confirm-cancel'), leave: dialog.getByTestId('confirm-ok') });
  await dialog.getByTestId('confirm-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('editor')).toBeVisible();
  await expect(page.getByTestId('field-name')).toHaveValue('Record update, changed');
  await expect(page).toHaveURL(/#\/workflow\/record-update$/);

  await page.evaluate('history.back()');
  await dialog.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  expect(page.url()).not.toContain('token=');
  // Forward to the editor and back again: every entry of this tab's history is free of the token.
  await page.evaluate('history.forward()');
  await expect(page.getByTestId('editor')).toBeVisible();
  await page.evaluate('history.back()');
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  expect(page.url()).not.toContain('token=');
  expect(native).toBe(0);
});

test("import over an existing workflow asks in the app's words; a file that is not a workflow shows every problem", async ({ page }) => {
  let native = 0;
  page.on('dialog', (dialog) => {
    native++;
    void dialog.dismiss();
  });
  const dir = mkdtempSync(join(tmpdir(), 'weft-import-'));
  const again = join(dir, 'trip-saga.weft.json');
  copyFileSync(join(ws.dir, 'trip-saga.weft.json'), again);
  const bad = join(dir, 'three-problems.weft.json');
  writeFileSync(bad, JSON.stringify({ format: 'weft/v1', id: 'three-problems', version: 1, steps: [{ id: 'a', kind: 'teleport' }, { id: 'b', kind: 'end', retry: 'often' }], edges: [] }, null, 2));
  const before = readFileSync(join(ws.dir, 'trip-saga.weft.json'), 'utf8');

  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  const choose = async (path: string) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('import-workflow').click()]);
    await chooser.setFiles(path);
  };
  await choose(again);
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-body')).toContainText('A workflow named "Trip booking saga" already exists (trip-saga.weft.json). Replace it with trip-saga.weft.json?');
  await expect(dialog).not.toContainText('replace');
  await expect(dialog.getByTestId('confirm-ok')).toHaveText('Replace');
  await shootBothThemes(page, 'import-replace', { ...appChrome(page), dialog });
  await dialog.getByTestId('confirm-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  expect(readFileSync(join(ws.dir, 'trip-saga.weft.json'), 'utf8')).toBe(before);

  await choose(bad);
  const problems = page.getByTestId('import-problems');
  await expect(problems.getByTestId('import-problems-summary')).toContainText('3 problems');
  const findings = problems.getByTestId('source-finding');
  await expect(findings).toHaveCount(3);
  for (const finding of await findings.all()) {
    await expect(finding.getByTestId('source-where')).toHaveText(/^line \d+, column \d+$/);
    await expect(finding.getByTestId('source-mark')).toBeVisible();
  }
  await expect(findings.filter({ hasText: '$.steps[0].kind' }).getByTestId('source-mark')).toHaveText('"teleport"');
  await expect(findings.filter({ hasText: '$.steps[1].retry' }).getByTestId('source-mark')).toHaveText('"often"');
  await shootBothThemes(page, 'import-problems', { summary: problems.getByTestId('import-problems-summary'), 'first problem': findings.first() });
  await problems.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(problems).toHaveCount(0);
  await expect(page.getByTestId('workflow-row-three-problems')).toHaveCount(0);
  expect(native).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

test('the new-workflow templates read at a glance: name, one line, step count and kinds', async ({ page }) => {
  await page.goto(served.address);
  await page.getByTestId('new-workflow').click();
  const card = page.getByTestId('template-card-agent-escalation');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('template-summary')).toHaveText('An agent reads a support ticket and proposes a refund.');
  await expect(card.getByTestId('template-facts')).toContainText('4 steps');
  await expect(card.getByTestId('template-kind')).toHaveText(['agent', 'human', 'end']);
  // Body-size text, not the 11 px faint block it was.
  const summary = card.getByTestId('template-summary');
  await expect(summary).toHaveCSS('font-size', '13px');
  const dialog = page.getByTestId('new-workflow-dialog');
  await shootBothThemes(page, 'new-workflow-templates', { dialog, card, summary });
});

test("the File menu's Rename and Delete ask in the app's dialog: a bad id is refused as typed, a rename moves the file, Delete asks and Keep keeps it", async ({ page }) => {
  // A workflow of its own, so the other tests' examples stay as they are.
  const scratch = JSON.parse(readFileSync(join(ws.dir, 'record-update.weft.json'), 'utf8')) as { id: string };
  writeFileSync(join(ws.dir, 'scratch.weft.json'), JSON.stringify({ ...scratch, id: 'scratch' }, null, 2));
  // A native prompt or confirm would fail the test: the app asks in its own dialog.
  page.on('dialog', (d) => {
    throw new Error(`a native ${d.type()} dialog opened: ${d.message()}`);
  });
  await openEditor(page, 'scratch');
  const dialog = page.getByTestId('confirm-dialog');

  await page.getByTestId('file-menu').click();
  await page.getByTestId('menu-rename').click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-input')).toBeFocused();
  await expect(dialog.getByTestId('confirm-input')).toHaveValue('scratch');
  await dialog.getByTestId('confirm-input').fill('Scratch Two');
  await expect(dialog.getByTestId('confirm-problem')).toContainText('"Scratch Two" is not a workflow id');
  await expect(dialog.getByTestId('confirm-input')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByTestId('confirm-ok').click();
  await expect(dialog, 'a bad id is not sent').toBeVisible();
  await shootBothThemes(page, 'editor-rename-dialog', { ...appChrome(page), dialog });
  await dialog.getByTestId('confirm-input').fill('scratch-two');
  await expect(dialog.getByTestId('confirm-problem')).toHaveCount(0);
  await dialog.getByTestId('confirm-input').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/#\/workflow\/scratch-two$/);
  await expect.poll(() => existsSync(join(ws.dir, 'scratch-two.weft.json'))).toBe(true);
  expect(existsSync(join(ws.dir, 'scratch.weft.json'))).toBe(false);

  await page.getByTestId('file-menu').click();
  await page.getByTestId('menu-delete').click();
  await expect(dialog).toContainText('Delete scratch-two.weft.json?');
  await expect(dialog.getByTestId('confirm-cancel')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  expect(existsSync(join(ws.dir, 'scratch-two.weft.json')), 'Keep it keeps the file').toBe(true);

  await page.getByTestId('file-menu').click();
  await page.getByTestId('menu-delete').click();
  await dialog.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await expect.poll(() => existsSync(join(ws.dir, 'scratch-two.weft.json'))).toBe(false);
  await expect(page.getByTestId('workflow-row-scratch-two')).toHaveCount(0);
});
