// The room the editor gives its canvas (issue 21, point 1's space), in Debian's chromium against
// the real `weft serve`: the palette and the inspector fold away to a rail by buttons with names
// (and by the keyboard), remembered across a reload; the Problems dock is a one-line bar while
// there are no problems and opens when some appear or when the user opens it; the minimap is
// small and can be hidden.
import { expect, test, type Page } from '@playwright/test';
import { appChrome, closeServedPage, openServedPage, shootBothThemes, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let page: Page;

test.beforeAll(async ({ browser }) => {
  ({ ws, served, page } = await openServedPage(browser, { width: 1440, height: 900 }));
});

test.afterAll(() => closeServedPage({ ws, served, page }));

async function openEditor(id: string): Promise<void> {
  await page.goto(served.address);
  await page.getByTestId(`workflow-row-${id}`).click();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
}

const canvasBox = async () => {
  const box = await page.getByTestId('editor-canvas').boundingBox();
  if (box === null) throw new Error('no canvas');
  return box;
};

test('the Problems dock is a one-line bar while there are no problems, and opens when some appear', async () => {
  await openEditor('order-payment');
  const dock = page.getByTestId('problems-dock');
  await expect(page.getByTestId('problems-none')).toHaveText('No problems');
  await expect(dock).toHaveAttribute('data-open', 'false');
  expect((await dock.boundingBox())?.height).toBeLessThanOrEqual(40);
  const tall = await canvasBox();

  // The user opens it with nothing in it, and folds it again (its title is the button).
  const fold = page.getByRole('button', { name: 'Problems', exact: true });
  await expect(fold).toHaveAttribute('aria-expanded', 'false');
  await fold.click();
  await expect(page.getByTestId('problems-empty')).toBeVisible();
  await fold.press('Enter');
  await expect(page.getByTestId('problems-empty')).toHaveCount(0);

  // A problem appears (a step no edge leads to): the dock opens with it.
  await page.getByTestId('palette-transform').click();
  await expect(dock).toHaveAttribute('data-open', 'true');
  await expect(page.locator('.problems-list')).toBeVisible();
  expect((await canvasBox()).height).toBeLessThan(tall.height);
  await shootBothThemes(page, 'editor-problems-open', { ...appChrome(page), canvas: page.getByTestId('editor-canvas'), problems: page.locator('.problems-list') });

  // Gone again: the dock folds back to its bar.
  await page.getByTestId('undo').click();
  await expect(dock).toHaveAttribute('data-open', 'false');
  await expect(page.getByTestId('problems-none')).toBeVisible();
});

test('the palette, the inspector and the minimap fold away, by buttons and keys, remembered', async () => {
  await openEditor('order-payment');
  const before = await canvasBox();
  await expect(page.locator('.react-flow__minimap')).toBeVisible();
  const minimap = await page.locator('.react-flow__minimap').boundingBox();
  expect(minimap?.width).toBeLessThanOrEqual(152);

  await page.getByRole('button', { name: 'Hide step palette' }).click();
  await expect(page.getByRole('complementary', { name: 'step palette', exact: true })).toHaveCount(0);
  // The inspector's button, by the keyboard alone.
  await page.getByRole('button', { name: 'Hide inspector' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'editor panel', exact: true })).toHaveCount(0);
  await page.getByRole('toolbar', { name: 'editor' }).getByRole('button', { name: 'minimap' }).click();
  await expect(page.locator('.react-flow__minimap')).toHaveCount(0);
  const wide = await canvasBox();
  expect(wide.width).toBeGreaterThan(before.width + 400);
  await shootBothThemes(page, 'editor-panels-folded', {
    ...appChrome(page),
    canvas: page.getByTestId('editor-canvas'),
    'show palette': page.getByRole('button', { name: 'Show step palette' }),
    'show inspector': page.getByRole('button', { name: 'Show inspector' }),
  });

  // Remembered across a reload.
  await page.reload();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show step palette' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show inspector' })).toBeVisible();
  await expect(page.locator('.react-flow__minimap')).toHaveCount(0);

  // Back by their keys (B, I, M) from the canvas, and by the rail's button.
  await page.locator('.react-flow__pane').click({ position: { x: 8, y: 8 } });
  await page.keyboard.press('b');
  await expect(page.getByRole('complementary', { name: 'step palette', exact: true })).toBeVisible();
  await page.keyboard.press('m');
  await expect(page.locator('.react-flow__minimap')).toBeVisible();
  await page.getByRole('button', { name: 'Show inspector' }).click();
  await expect(page.getByRole('complementary', { name: 'editor panel', exact: true })).toBeVisible();
  await page.keyboard.press('Shift+I');
  await expect(page.getByRole('complementary', { name: 'editor panel', exact: true })).toHaveCount(0);
  await page.keyboard.press('Shift+I');
  await expect(page.getByRole('complementary', { name: 'editor panel', exact: true })).toBeVisible();
  expect(await canvasBox()).toEqual(before);
});
