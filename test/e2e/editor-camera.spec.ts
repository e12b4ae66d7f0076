// The editor's camera (issue 21, point 3), in Debian's chromium against the real `weft serve`:
// fit view fits after every kind of edit, by F, by the toolbar's button and by the canvas control;
// no edit moves the camera by itself; auto-layout ends with every step in view; a new workflow
// opens at a zoom where the steps a user drops stay in view. The camera is read from the canvas
// (.react-flow__viewport's transform) and the steps' boxes against the pane's box.
import { expect, test, type Page } from '@playwright/test';
import { closeServedPage, openServedPage, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let page: Page;

test.beforeAll(async ({ browser }) => {
  ({ ws, served, page } = await openServedPage(browser, { width: 1440, height: 900 }));
});

test.afterAll(() => closeServedPage({ ws, served, page }));

/** The canvas's transform (pan and zoom), once it is the same on three animation frames in a row. */
function settledTransform(): Promise<string> {
  return page.evaluate(`new Promise((resolve) => {
    let last = null;
    let same = 0;
    const frame = () => {
      const now = document.querySelector('.react-flow__viewport')?.getAttribute('style') ?? '';
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 3) resolve(now);
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`);
}

/** The steps whose box is not wholly inside the canvas pane (nothing when every step is in view). */
function stepsOutOfView(): Promise<string[]> {
  return page.evaluate(`(() => {
    const pane = document.querySelector('[data-testid="editor-canvas"] .react-flow')?.getBoundingClientRect();
    if (pane === undefined) return ['no pane'];
    const out = [];
    for (const node of document.querySelectorAll('.react-flow__node')) {
      const r = node.getBoundingClientRect();
      if (r.left < pane.left - 0.5 || r.top < pane.top - 0.5 || r.right > pane.right + 0.5 || r.bottom > pane.bottom + 0.5) out.push(node.getAttribute('data-id'));
    }
    return out;
  })()`);
}

/** Zooms in on the canvas's centre until some step is out of view, so a fit has something to do. */
async function zoomAway(): Promise<void> {
  await page.getByTestId('editor-canvas').locator('.react-flow__pane').click({ position: { x: 8, y: 8 } });
  for (let i = 0; i < 8 && (await stepsOutOfView()).length === 0; i++) {
    await page.keyboard.press('=');
    await settledTransform();
  }
  expect(await stepsOutOfView()).not.toEqual([]);
}

const FITS: Record<string, () => Promise<void>> = {
  'the F key': async () => {
    await page.getByTestId('editor-canvas').locator('.react-flow__pane').click({ position: { x: 8, y: 8 } });
    await page.keyboard.press('f');
  },
  "the toolbar's button": () => page.getByRole('toolbar', { name: 'editor' }).getByRole('button', { name: 'fit view' }).click(),
  'the canvas control': () => page.locator('.react-flow__controls-fitview').click(),
};

/** After an edit: each way to fit view fits every step into the pane. */
async function expectEveryFitFits(after: string): Promise<void> {
  for (const [how, fit] of Object.entries(FITS)) {
    await zoomAway();
    await fit();
    await expect.poll(async () => (await settledTransform(), stepsOutOfView()), { message: `fit by ${how} after ${after}` }).toEqual([]);
  }
}

/** Runs an edit and checks the camera did not move: the transform is the same once the edit shows. */
async function expectCameraStill(what: string, edit: () => Promise<void>): Promise<void> {
  const before = await settledTransform();
  await edit();
  await expect(page.getByTestId('unsaved')).toBeVisible();
  expect(await settledTransform(), `the camera after ${what}`).toBe(before);
}

async function openEditor(id: string): Promise<void> {
  await page.goto(served.address);
  await page.getByTestId(`workflow-row-${id}`).click();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  await expect.poll(async () => (await settledTransform(), stepsOutOfView())).toEqual([]);
}

async function discard(): Promise<void> {
  while (await page.getByTestId('undo').isEnabled()) await page.getByTestId('undo').click();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
}

const node = (id: string) => page.getByTestId(`step-node-${id}`);

test('fit view fits after every kind of edit, and no edit moves the camera', async () => {
  await openEditor('order-payment');
  const edits: Record<string, () => Promise<void>> = {
    'typing a name': async () => {
      await node('check_payment').click();
      const name = page.getByTestId('field-name');
      await name.fill('Charge the card now');
      await name.press('Enter');
      await expect(node('check_payment')).toContainText('Charge the card now');
    },
    'renaming a step': async () => {
      await node('check_payment').click();
      const id = page.getByTestId('field-id');
      await id.fill('payment_check');
      await id.press('Enter');
      await expect(node('payment_check')).toBeVisible();
    },
    'a drag': async () => {
      const box = await node('fulfil').boundingBox();
      if (box === null) throw new Error('no fulfil step');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30, { steps: 8 });
      await page.mouse.up();
    },
    'a delete': async () => {
      await node('cancel_order').click();
      await page.keyboard.press('Delete');
      await expect(node('cancel_order')).toHaveCount(0);
    },
    'a new step from the palette': async () => {
      await page.getByTestId('editor-canvas').locator('.react-flow__pane').click({ position: { x: 8, y: 8 } });
      const count = await page.locator('.react-flow__node').count();
      await page.getByTestId('palette-transform').click();
      await expect(page.locator('.react-flow__node')).toHaveCount(count + 1);
    },
  };
  for (const [what, edit] of Object.entries(edits)) {
    await expectCameraStill(what, edit);
    await expectEveryFitFits(what);
    await discard();
  }
});

test('auto-layout ends with every step in view', async () => {
  for (const id of ['trip-saga', 'research-review']) {
    await openEditor(id);
    await zoomAway();
    await page.keyboard.press('l');
    await expect(page.getByTestId('unsaved')).toBeVisible();
    await expect.poll(async () => (await settledTransform(), stepsOutOfView()), { message: `auto-layout of ${id}` }).toEqual([]);
    await discard();
  }
});

test('a new workflow opens at a zoom where dropped steps stay in view', async () => {
  await page.goto(served.address);
  await page.getByTestId('new-workflow').click();
  await page.getByTestId('new-workflow-id').fill('camera-new');
  await page.getByTestId('new-workflow-create').click();
  await expect(node('start')).toBeVisible();
  const opened = await settledTransform();
  const canvas = page.getByTestId('editor-canvas');
  // Dropped near each corner of the canvas, where a step would stick out of the pane. A dropped
  // step no edge leads to is a problem: the Problems dock opens after the first drop, and the
  // canvas is then shorter, so each drop is aimed at the canvas as it is.
  const drops: [string, 'left' | 'right', 'top' | 'bottom'][] = [
    ['http', 'left', 'top'],
    ['human', 'right', 'top'],
    ['wait', 'left', 'bottom'],
    ['agent', 'right', 'bottom'],
  ];
  for (const [kind, across, down] of drops) {
    const box = await canvas.boundingBox();
    if (box === null) throw new Error('no canvas');
    const x = across === 'left' ? 24 : box.width - 24;
    const y = down === 'top' ? 24 : box.height - 24;
    await page.getByTestId(`palette-${kind}`).dragTo(canvas, { targetPosition: { x, y } });
    await expect(node(kind)).toBeVisible();
    await expect(page.getByTestId('problems-dock')).toHaveAttribute('data-open', 'true');
    expect(await settledTransform(), `the camera after dropping ${kind}`).toBe(opened);
    expect(await stepsOutOfView(), `after dropping ${kind}`).toEqual([]);
  }
});
