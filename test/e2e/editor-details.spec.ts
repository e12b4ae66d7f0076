// The editor's and the workspace's rough edges of issue 21 (point 7), in Debian's chromium against
// the real `weft serve` on a copy of examples/: the version diff shows each changed field's old and
// new value and picks the step on the graph; a workspace file that does not parse opens on its
// error; Back with unsaved changes asks in the app's dialog; import asks in the user's words and
// lists every shape error; the new-workflow templates are scannable. Screenshots in both themes.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { appChrome, exampleWorkspace, shootBothThemes, startServe, type Served, type Workspace } from './weft-serve.ts';

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
