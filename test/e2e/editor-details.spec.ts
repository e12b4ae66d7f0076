// The editor's and the workspace's rough edges of issue 21 (point 7), in Debian's chromium against
// the real `weft serve` on a copy of examples/: the version diff shows each changed field's old and
// new value and picks the step on the graph; a workspace file that does not parse opens on its
// error; Back with unsaved changes asks in the app's dialog; import asks in the user's words and
// lists every shape error; the new-workflow templates are scannable. Screenshots in both themes.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
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
