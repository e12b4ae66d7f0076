// The editor's far level on a large workflow (issue 21, point 11), in Debian's chromium against
// the real `weft serve`: at the zoom that fits the whole 300-step workflow the steps are drawn on
// one canvas (no node elements), a click on a step's box selects it and the inspector shows it,
// and a drag moves the step in the document at the drop (not before), as one undo step. The
// canvas is read through its pixels and its test hook (window.__weftFarView: each step's box on
// the page, the step under a point).
import { expect, test, type Page } from '@playwright/test';
import { setTheme, startServe, type Served, type Workspace } from './weft-serve.ts';
import { generatedWorkspace } from '../bench/editor-workspace.ts';

/** A step's box on the canvas (renderer/graph/to-flow.ts). */
const NODE_WIDTH = 232;
const NODE_HEIGHT = 76;

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';
const ID = 'generated-300';

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = generatedWorkspace([300]).ws;
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const boxes = (page: Page): Promise<Box[]> => page.evaluate('window.__weftFarView.boxes()') as Promise<Box[]>;
const boxOf = async (page: Page, id: string): Promise<Box | undefined> => (await boxes(page)).find((b) => b.id === id);
const centre = (b: Box): { x: number; y: number } => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** The far canvas's pixel (RGBA) at a point of the page. */
function pixelAt(page: Page, at: { x: number; y: number }): Promise<number[]> {
  return page.evaluate(`(() => {
    const c = document.querySelector('[data-testid="far-canvas"]');
    const r = c.getBoundingClientRect();
    const k = c.width / r.width;
    return [...c.getContext('2d').getImageData(Math.floor((${at.x} - r.left) * k), Math.floor((${at.y} - r.top) * k), 1, 1).data];
  })()`) as Promise<number[]>;
}

/** The step nearest the canvas's centre, its box, and the zoom. */
async function middleStep(page: Page): Promise<Box> {
  const pane = await page.getByTestId('editor-canvas').boundingBox();
  if (pane === null) throw new Error('no editor canvas');
  const cx = pane.x + pane.width / 2;
  const cy = pane.y + pane.height / 2;
  const all = await boxes(page);
  const best = all.sort((a, b) => Math.hypot(centre(a).x - cx, centre(a).y - cy) - Math.hypot(centre(b).x - cx, centre(b).y - cy))[0];
  if (best === undefined) throw new Error('the far canvas has no steps');
  return best;
}

async function openWhole(page: Page): Promise<void> {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.getByTestId(`workflow-row-${ID}`).click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  // The editor opens fitted to the whole workflow: the far level, drawn on the canvas.
  await expect(page.getByTestId('far-canvas')).toBeVisible();
  await expect.poll(() => page.evaluate('window.__weftFarView?.drawn() ?? 0')).toBe(300);
}

test.use({ viewport: { width: 1440, height: 900 } });

test('a large workflow that opens at the whole view never mounts its steps as elements on the way', async ({ page }) => {
  // Counted from the document's start: every step element React Flow adds, before or after the opening fit.
  await page.addInitScript(`
    window.__stepMounts = 0;
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) {
        if (n instanceof Element) window.__stepMounts += (n.matches('.react-flow__node') ? 1 : 0) + n.querySelectorAll('.react-flow__node').length;
      }
    }).observe(document, { childList: true, subtree: true });
  `);
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.goto(`${served.url}/#/workflow/${ID}`);
  await expect(page.getByTestId('far-canvas')).toBeVisible();
  await expect.poll(() => page.evaluate('window.__weftFarView?.drawn() ?? 0')).toBe(300);
  expect(await page.evaluate('window.__stepMounts'), 'step elements mounted while opening').toBe(0);
});

test('at the whole view the canvas draws every step, and no step is an element', async ({ page }) => {
  await openWhole(page);
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  if (process.env['FARVIEW_SHOT']) {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      await page.screenshot({ path: `/tmp/farview-${theme}.png` });
    }
  }
  const step = await middleStep(page);
  // The step's box is painted (opaque), the pane between rows is not (the canvas is transparent there).
  expect((await pixelAt(page, centre(step)))[3]).toBe(255);
  expect((await pixelAt(page, { x: centre(step).x, y: step.y - 40 }))[3]).toBe(0);
  // Zoomed in past the far level the steps are elements again.
  await page.mouse.move(centre(step).x, centre(step).y);
  for (let i = 0; i < 40 && (await page.getByTestId('far-canvas').count()) > 0; i++) {
    await page.mouse.wheel(0, -300);
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  }
  await expect(page.getByTestId('far-canvas')).toHaveCount(0);
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  // The minimap of a large workflow is a canvas at every zoom.
  await expect(page.getByTestId('canvas-minimap')).toBeVisible();
});

test('F fits the whole of a large workflow, not only the steps drawn so far', async ({ page }) => {
  await openWhole(page);
  const pane = await page.getByTestId('editor-canvas').locator('.react-flow').boundingBox();
  if (pane === null) throw new Error('no React Flow pane');
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  for (let i = 0; i < 40 && (await page.getByTestId('far-canvas').count()) > 0; i++) {
    await page.mouse.wheel(0, -300);
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  }
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  await page.keyboard.press('f');
  await expect(page.getByTestId('far-canvas')).toBeVisible();
  // Every step's box inside the pane.
  await expect
    .poll(async () => (await boxes(page)).filter((b) => b.x < pane.x || b.y < pane.y || b.x + b.width > pane.x + pane.width || b.y + b.height > pane.y + pane.height).length)
    .toBe(0);
  // The minimap is drawn there too (React Flow's leaves hidden steps out): a canvas of its own.
  await expect(page.getByTestId('canvas-minimap')).toBeVisible();
});

test('a click on a step at the whole view selects it and the inspector shows it', async ({ page }) => {
  await openWhole(page);
  const step = await middleStep(page);
  await page.mouse.click(centre(step).x, centre(step).y);
  await expect(page.getByTestId('step-inspector')).toBeVisible();
  await expect(page.getByTestId('field-id')).toHaveValue(step.id);
  // The selection is drawn: a ring in the accent colour around the step.
  const ring = { x: centre(step).x, y: centre(step).y - Math.max(5, step.height / 2 + 2) };
  await expect.poll(async () => (await pixelAt(page, ring))[3]).toBe(255);
  // The keyboard works on it: Delete takes it away, undo brings it back.
  await page.keyboard.press('Delete');
  await expect.poll(() => page.evaluate('window.__weftFarView.drawn()')).toBe(299);
  await page.keyboard.press(`${MOD}+z`);
  await expect.poll(() => page.evaluate('window.__weftFarView.drawn()')).toBe(300);
  await page.mouse.click(centre(step).x, centre(step).y);
  await expect(page.getByTestId('field-id')).toHaveValue(step.id);
  // A click on the empty pane clears it, as on React Flow's pane.
  await page.mouse.click(centre(step).x, step.y - 40);
  await expect(page.getByTestId('step-inspector')).toHaveCount(0);
});

test('a drag at the whole view moves the step in the document at the drop, one undo step', async ({ page }) => {
  await openWhole(page);
  const step = await middleStep(page);
  const from = centre(step);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + 6 * i, from.y + 4 * i);
  // Held: the drag is drawn, but the document has not changed yet (no edit per move).
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  await page.mouse.up();
  await expect(page.getByTestId('unsaved')).toBeVisible();
  const moved = await boxOf(page, step.id);
  expect(moved?.x).toBeCloseTo(step.x + 60, 0);
  expect(moved?.y).toBeCloseTo(step.y + 40, 0);
  // The draft (localStorage) has the new place: where the step was drawn, moved by the drag in flow units.
  const [tx, ty, zoom] = (await page.evaluate(`(() => {
    const m = new DOMMatrix(document.querySelector('[data-testid="editor-canvas"] .react-flow__viewport').style.transform);
    return [m.e, m.f, m.a];
  })()`)) as [number, number, number];
  const pane = await page.getByTestId('editor-canvas').locator('.react-flow').boundingBox();
  if (pane === null) throw new Error('no React Flow pane');
  const was = { x: (from.x - pane.x - tx) / zoom - NODE_WIDTH / 2, y: (from.y - pane.y - ty) / zoom - NODE_HEIGHT / 2 };
  const draft = (): Promise<{ x: number; y: number } | null> =>
    page.evaluate(`(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('weft.draft:') && k.endsWith(':${ID}'));
      return key === undefined ? null : JSON.parse(localStorage.getItem(key)).definition.layout['${step.id}'];
    })()`) as Promise<{ x: number; y: number } | null>;
  await expect.poll(draft).not.toBeNull();
  const written = await draft();
  // Within a flow unit or two: the page's pixels are whole, the zoom is about 0.01.
  expect(Math.abs((written?.x ?? 0) - (was.x + 60 / zoom))).toBeLessThan(2 / zoom);
  expect(Math.abs((written?.y ?? 0) - (was.y + 40 / zoom))).toBeLessThan(2 / zoom);
  // One undo puts it back, and the document is as saved.
  await page.keyboard.press(`${MOD}+z`);
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  const back = await boxOf(page, step.id);
  expect(back?.x).toBeCloseTo(step.x, 1);
  expect(back?.y).toBeCloseTo(step.y, 1);
});
