// The editor's command registry in Debian's chromium against the real `weft serve`: a key that a
// popover answers is not taken from it, and the palette's pick goes after the selected step.
import { expect, test, type Page } from '@playwright/test';
import { exampleWorkspace, startServe, type Served, type Workspace } from './weft-serve.ts';

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

async function createWorkflow(page: Page, id: string): Promise<void> {
  await page.goto(served.address);
  await page.getByTestId('new-workflow').click();
  await page.getByTestId('new-workflow-id').fill(id);
  await page.getByTestId('new-workflow-create').click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(page.getByTestId('step-node-start')).toBeVisible();
}

test('Escape closes the step palette and keeps the selection; the pick then goes after the selected step', async ({ page }) => {
  await createWorkflow(page, 'command-flow');
  await page.getByTestId('step-node-start').click();
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(1);

  await page.keyboard.press('n');
  await expect(page.getByTestId('palette-popover')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('palette-popover')).toHaveCount(0);
  // The palette's Escape closed the palette only: the step is still selected.
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(1);

  await page.keyboard.press('n');
  await page.keyboard.type('trans');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-node-transform')).toBeVisible();
  await expect(page.getByTestId('rf__edge-start_transform')).toHaveCount(1);

  // With no popover open, Escape clears the selection.
  await page.keyboard.press('Escape');
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(0);
});
