// The editor by keyboard, in Debian's chromium against the real `weft serve` on a copy of
// examples/ (issue 21, point 9): Tab reaches the steps before the edges, undo, redo and delete
// keep the focus in the canvas, a focused edge shows a ring, and a whole day's work (add a step,
// connect it choosing the outcome, configure it, save, run, answer the task) needs no mouse.
import { expect, test, type Page } from '@playwright/test';
import { exampleWorkspace, startServe, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let page: Page;

test.beforeAll(async ({ browser }) => {
  ws = exampleWorkspace();
  served = await startServe(ws);
  page = await browser.newPage();
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  ws?.remove();
});

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

/** What has the focus: its test id (React Flow's rf__node-ID / rf__edge-ID), else its tag. */
const focused = (): Promise<string> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (el === null) return 'none';
    return el.getAttribute('data-testid') ?? el.tagName.toLowerCase();
  });

/** Opens a workflow in the editor through the address, as a link or a reload would. */
async function openEditor(id: string): Promise<void> {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.evaluate((hash) => (window.location.hash = hash), `#/workflow/${id}`);
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
}

/** Presses Tab from the top of the page until the focus is on the canvas's steps or edges; returns the stops of the canvas in order. */
async function tabThroughCanvas(): Promise<string[]> {
  await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
  const inCanvas = (id: string): boolean => id.startsWith('rf__node-') || id.startsWith('rf__edge-');
  // The page's frame, toolbar and palette come first: a bound, not a count the test asserts.
  for (let i = 0; i < 80 && !inCanvas(await focused()); i++) await page.keyboard.press('Tab');
  const stops: string[] = [];
  for (let id = await focused(); inCanvas(id) && stops.length < 100; id = await focused()) {
    stops.push(id);
    await page.keyboard.press('Tab');
  }
  return stops;
}

test('Tab reaches every step of the canvas before any edge, and Shift+Tab walks back the same way', async () => {
  await openEditor('order-payment');
  const nodes = await page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  const edges = await page.locator('.react-flow__edge').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  expect(nodes).toHaveLength(10);
  expect(edges).toHaveLength(9);

  const stops = await tabThroughCanvas();
  expect(stops).toEqual([...nodes, ...edges]);

  // Back from past the last edge: the edges in reverse, then the steps.
  await page.keyboard.press('Shift+Tab');
  const back: string[] = [];
  for (let id = await focused(); (id.startsWith('rf__node-') || id.startsWith('rf__edge-')) && back.length < 100; id = await focused()) {
    back.push(id);
    await page.keyboard.press('Shift+Tab');
  }
  expect(back).toEqual([...nodes, ...edges].reverse());
});

test('undo, redo and delete keep the focus in the canvas: on the same element, else on the canvas', async () => {
  await openEditor('order-payment');
  const step = page.getByTestId('rf__node-create_order');
  await step.focus();
  // A move by the keyboard, undone and redone: the step keeps the focus.
  await page.keyboard.press('Enter');
  await expect(step).toHaveClass(/selected/);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('editor')).toHaveAttribute('data-dirty', 'true');
  await page.keyboard.press(`${MOD}+z`);
  await expect(page.getByTestId('editor')).toHaveAttribute('data-dirty', 'false');
  expect(await focused()).toBe('rf__node-create_order');
  await page.keyboard.press(`${MOD}+Shift+z`);
  await expect(page.getByTestId('editor')).toHaveAttribute('data-dirty', 'true');
  expect(await focused()).toBe('rf__node-create_order');

  // Deleted: the canvas takes the focus; undone: the step has it again; redone: the canvas.
  await page.keyboard.press('Delete');
  await expect(step).toHaveCount(0);
  await expect.poll(focused).toBe('rf__wrapper');
  await page.keyboard.press(`${MOD}+z`);
  await expect(step).toHaveCount(1);
  await expect.poll(focused).toBe('rf__node-create_order');
  await page.keyboard.press(`${MOD}+y`);
  await expect(step).toHaveCount(0);
  await expect.poll(focused).toBe('rf__wrapper');
  await page.keyboard.press(`${MOD}+z`);
  await expect.poll(focused).toBe('rf__node-create_order');

  // The same for an edge.
  const edge = page.getByTestId('rf__edge-payment_received');
  await edge.focus();
  await page.keyboard.press('Enter');
  await expect(edge).toHaveClass(/selected/);
  await page.keyboard.press('Delete');
  await expect(edge).toHaveCount(0);
  await expect.poll(focused).toBe('rf__wrapper');
  await page.keyboard.press(`${MOD}+z`);
  await expect(edge).toHaveCount(1);
  await expect.poll(focused).toBe('rf__edge-payment_received');
  // Keys still reach the editor from the canvas: Tab goes on to the steps.
  await page.getByTestId('rf__wrapper').focus();
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('rf__node-create_order');
});
