// The editor by keyboard, in Debian's chromium against the real `weft serve` on a copy of
// examples/ (issue 21, point 9): Tab reaches the steps before the edges, undo, redo and delete
// keep the focus in the canvas, a focused edge shows a ring, and a whole day's work (add a step,
// connect it choosing the outcome, configure it, save, run, answer the task) needs no mouse.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { closeServedPage, openServedPage, setTheme, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let page: Page;

test.beforeAll(async ({ browser }) => {
  ({ ws, served, page } = await openServedPage(browser));
});

test.afterAll(() => closeServedPage({ ws, served, page }));

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

/** What has the focus: its test id (React Flow's rf__node-ID / rf__edge-ID), else its tag. */
const focused = (): Promise<string> =>
  // In-page code is written as strings: the project's type check has no DOM (tsconfig.json).
  page.evaluate<string>(`(() => {
    const el = document.activeElement;
    if (el === null) return 'none';
    return el.getAttribute('data-testid') ?? el.tagName.toLowerCase();
  })()`);

/** Opens a workflow in the editor through the address, as a link or a reload would. */
async function openEditor(id: string): Promise<void> {
  await page.goto(served.address);
  // An editor left with unsaved changes by the test before asks first (the app's own dialog): leave.
  const leave = page.getByTestId('confirm-ok');
  await expect(page.getByTestId('workflow-list').or(leave)).toBeVisible();
  if (await leave.isVisible()) {
    await leave.focus();
    await page.keyboard.press('Enter');
  }
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#/workflow/${id}`)}`);
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
}

/** Presses Tab from the top of the page until the focus is on the canvas's steps or edges; returns the stops of the canvas in order. */
async function tabThroughCanvas(): Promise<string[]> {
  await page.evaluate(`document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined`);
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
  const testIds = (selector: string): Promise<string[]> =>
    page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.getAttribute('data-testid') ?? '')`);
  const nodes = await testIds('.react-flow__node');
  const edges = await testIds('.react-flow__edge');
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

type Rgb = [number, number, number];

/** WCAG's contrast ratio of two sRGB colours. */
function contrast(a: Rgb, b: Rgb): number {
  const lum = ([r, g, bl]: Rgb): number => {
    const lin = (c: number): number => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The RGB pixels of PNG screenshots, decoded by the browser in a blank page of its own. */
async function pixelsOf(browser: Browser, shots: Buffer[]): Promise<Rgb[][]> {
  const blank = await browser.newPage();
  try {
    const decoded = await blank.evaluate<number[][]>(`(async (pngs) => {
      const out = [];
      for (const b64 of pngs) {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const context = canvas.getContext('2d');
        if (context === null) throw new Error('no 2d context');
        context.drawImage(img, 0, 0);
        out.push([...context.getImageData(0, 0, img.width, img.height).data]);
      }
      return out;
    })(${JSON.stringify(shots.map((s) => s.toString('base64')))})`);
    return decoded.map((data) => {
      const px: Rgb[] = [];
      for (let i = 0; i < data.length; i += 4) px.push([data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0]);
      return px;
    });
  } finally {
    await blank.close();
  }
}

test('a focused edge shows a focus ring at 3:1 or more against the canvas, at least 2 px wide along it, in both themes', async ({ browser }) => {
  await openEditor('order-payment');
  // The longest edge: its ring is measured along its length.
  const longest = await page.evaluate<string>(`(() => {
    const length = (e) => e.querySelector('.react-flow__edge-path')?.getTotalLength() ?? 0;
    const edges = [...document.querySelectorAll('.react-flow__edge')];
    return edges.reduce((best, e) => (length(e) > length(best) ? e : best)).getAttribute('data-testid') ?? '';
  })()`);
  const edge = page.getByTestId(longest);
  const line = edge.locator('.react-flow__edge-path');
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const box = await line.boundingBox();
    if (box === null) throw new Error('the edge is not drawn');
    const clip = { x: Math.floor(box.x - 8), y: Math.floor(box.y - 8), width: Math.ceil(box.width + 16), height: Math.ceil(box.height + 16) };
    await page.getByTestId('rf__wrapper').focus();
    const before = await page.screenshot({ clip, animations: 'disabled' });
    await edge.focus();
    expect(await page.evaluate<boolean>(`document.activeElement?.matches(':focus-visible') === true && document.activeElement.getAttribute('data-testid') === ${JSON.stringify(longest)}`)).toBe(true);
    const after = await page.screenshot({ clip, animations: 'disabled', path: `test-results/screenshots/edge-focus-${theme}.png` });
    const [was, now] = await pixelsOf(browser, [before, after]);
    if (was === undefined || now === undefined) throw new Error('no pixels');
    // The canvas's colour: the commonest pixel of the picture without the ring.
    const counts = new Map<string, number>();
    for (const p of was) counts.set(p.join(','), (counts.get(p.join(',')) ?? 0) + 1);
    const canvas = ([...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '0,0,0').split(',').map(Number) as Rgb;
    // The ring: what focus changed, in a colour at 3:1 or more against the canvas.
    const ring = now.filter((p, i) => p.join(',') !== was[i]?.join(',') && contrast(p, canvas) >= 3).length;
    // Along the edge's length on screen, at least a 2 px wide band.
    const length = await page.evaluate<number>(`(() => {
      const path = document.querySelector(${JSON.stringify(`[data-testid="${longest}"] .react-flow__edge-path`)});
      if (!(path instanceof SVGPathElement)) return 0;
      const zoom = new DOMMatrix(getComputedStyle(path.closest('.react-flow__viewport') ?? path).transform).a;
      return path.getTotalLength() * zoom;
    })()`);
    expect(length).toBeGreaterThan(20);
    expect(ring, `${theme}: ring pixels for an edge ${Math.round(length)} px long`).toBeGreaterThanOrEqual(2 * length);
  }
  await setTheme(page, 'light');
});

/** Presses Tab (or Shift+Tab) until the element with this test id has the focus. */
async function tabTo(testId: string, back = false): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if ((await focused()) === testId) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${testId}; the focus is on ${await focused()}`);
}

/** Presses Tab until the focus is inside the element the selector names. */
async function tabInto(selector: string): Promise<void> {
  const inside = (): Promise<boolean> => page.evaluate<boolean>(`document.activeElement?.closest(${JSON.stringify(selector)}) != null`);
  for (let i = 0; i < 150; i++) {
    if (await inside()) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}; the focus is on ${await focused()}`);
}

test('a whole day by keyboard alone: new workflow, add a step, connect it choosing the outcome, configure, save, run, answer the task', async () => {
  // No click and no mouse: page.keyboard only, from the workflows list.
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();

  await tabTo('new-workflow');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('new-workflow-dialog')).toBeVisible();
  expect(await focused()).toBe('new-workflow-id');
  await page.keyboard.type('by-keys');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-node-start')).toBeVisible();

  // Add a human step after `start` from the palette.
  await tabTo('rf__node-start');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rf__node-start')).toHaveClass(/selected/);
  await page.keyboard.press('n');
  await expect(page.getByTestId('palette-popover')).toBeVisible();
  await page.keyboard.type('human');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-node-human')).toBeVisible();
  await expect.poll(focused).toBe('rf__node-human');
  await expect(page.getByTestId('rf__edge-start_human')).toHaveCount(1);

  // The empty workflow's start → done edge goes: Tab past the steps reaches the edges.
  await tabTo('rf__edge-start_done');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('rf__edge-start_done')).toHaveCount(0);
  await expect.poll(focused).toBe('rf__wrapper');

  // Connect human → done on two outcomes: C, the target, then the outcomes (Space marks one, Enter
  // takes). A human step needs a deadline and an edge for "expired": the validator says so.
  await tabTo('rf__node-human');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rf__node-human')).toHaveClass(/selected/);
  await page.keyboard.press('c');
  await expect(page.getByTestId('connect-picker')).toBeVisible();
  await page.keyboard.type('done');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('outcome-picker')).toBeVisible();
  expect(await focused()).toBe('outcome-succeeded');
  await page.keyboard.press('ArrowDown');
  expect(await focused()).toBe('outcome-rejected');
  await page.keyboard.press('ArrowDown');
  expect(await focused()).toBe('outcome-expired');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('outcome-expired')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  expect(await focused()).toBe('outcome-succeeded');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('outcome-picker')).toHaveCount(0);
  const edge = page.locator('.react-flow__edge[data-id^="human_done"]');
  await expect(edge).toHaveCount(1);
  const edgeId = (await edge.getAttribute('data-id')) ?? '';
  await expect(page.getByTestId(`edge-label-${edgeId}`)).toContainText('expired');
  await expect(page.getByTestId(`edge-label-${edgeId}`)).toContainText('succeeded');
  // The picker gave the focus back to the step it was opened on.
  await expect.poll(focused).toBe('rf__node-human');

  // Configure the step: I goes to the inspector, Tab to its title.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rf__node-human')).toHaveClass(/selected/);
  await page.keyboard.press('i');
  await expect.poll(() => page.evaluate<boolean>(`document.activeElement?.closest('[data-field="id"]') != null`)).toBe(true);
  await tabInto('[data-field="config.title"]');
  await page.keyboard.press(`${MOD}+a`);
  await page.keyboard.type('Approve the keyboard order');
  await tabTo('section-reliability');
  if ((await page.getByTestId('section-reliability').getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('Enter');
  await tabInto('[data-field="deadlineMs"]');
  await page.keyboard.type('3d');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('rf__node-human').locator('.problem-badge')).toHaveCount(0);

  // Save, from wherever the focus is.
  await page.keyboard.press(`${MOD}+s`);
  await expect(page.getByTestId('editor')).toHaveAttribute('data-dirty', 'false');

  // Run it: the start form takes the focus, Tab reaches Start.
  await tabTo('action-start-run', true);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('dialog-start-run')).toBeVisible();
  await expect.poll(() => page.evaluate<boolean>(`document.activeElement?.closest('[data-testid="dialog-start-run"]') != null`)).toBe(true);
  await tabTo('submit-action');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-view')).toBeVisible();

  // Answer the task from the tasks page.
  await tabTo('nav-tasks');
  await page.keyboard.press('Enter');
  const card = page.locator('[data-testid^="task-"][data-testid$="-human"]');
  await expect(card).toHaveCount(1);
  if ((await card.getByTestId('task-toggle').getAttribute('aria-expanded')) !== 'true') {
    await tabTo('task-toggle');
    await page.keyboard.press('Enter');
  }
  await expect(card.getByTestId('task-answer')).toBeVisible();
  await expect(card).toContainText('Approve the keyboard order');
  await tabTo('action-approve');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('task-answered')).toBeVisible();
});
