// The run page's split between graph and timeline (issue 21, point 5), in Debian's chromium
// against the real `weft serve`: the separator is a focusable role=separator with its value,
// dragged or moved with the arrow keys, and the split it sets survives a reload; the legend folds
// away, remembered, and the rows get its lines.
import { expect, test, type Page } from '@playwright/test';
import { appChrome, exampleWorkspace, shootBothThemes, startServe, weft, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let page: Page;
let runId: string;

test.beforeAll(async ({ browser }) => {
  ws = exampleWorkspace();
  served = await startServe(ws);
  const r = await weft(ws, ['run', 'research-review.weft.json', '--input', JSON.stringify({ topic: 'durable workflow engines', audience: 'platform engineers' }), '--json']);
  expect(r.stderr).toBe('');
  runId = (JSON.parse(r.stdout) as { runId: string }).runId;
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  ws?.remove();
});

const split = () => page.getByRole('separator', { name: 'Resize the timeline' });
const splitValue = async (): Promise<number> => Number(await split().getAttribute('aria-valuenow'));
const height = async (testId: string): Promise<number> => (await page.getByTestId(testId).boundingBox())?.height ?? 0;
/** How many timeline rows the rows' area has room for. */
const rowsThatFit = (): Promise<number> => page.evaluate(`Math.floor(document.querySelector('.tl-scroll').clientHeight / document.querySelector('.tl-row').getBoundingClientRect().height)`);

async function openRun(): Promise<void> {
  await page.goto(`${served.url}/#token=${served.token}`);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect(page.locator('.tl-row').first()).toBeVisible();
}

test('the split between graph and timeline is dragged or keyed, and kept across a reload', async () => {
  await openRun();
  await expect(split()).toHaveAttribute('aria-orientation', 'horizontal');
  const start = await splitValue();
  expect(await height('run-timeline')).toBeGreaterThan(0);
  const graphBefore = (await page.locator('.run-graph').boundingBox())?.height ?? 0;

  // Dragged up by 160 px: the timeline grows by as much, the graph shrinks by as much.
  const box = await split().boundingBox();
  if (box === null) throw new Error('no separator');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 160, { steps: 10 });
  await page.mouse.up();
  await expect.poll(splitValue).toBe(start + 160);
  expect((await page.locator('.run-graph').boundingBox())?.height).toBeCloseTo(graphBefore - 160, 0);

  // Kept across a reload.
  await page.reload();
  await expect(page.locator('.tl-row').first()).toBeVisible();
  await expect.poll(splitValue).toBe(start + 160);

  // The keyboard: arrows move it, Home and End go to the ends.
  await split().focus();
  await page.keyboard.press('ArrowDown');
  await expect.poll(splitValue).toBe(start + 160 - 24);
  await page.keyboard.press('Home');
  await expect.poll(splitValue).toBe(Number(await split().getAttribute('aria-valuemin')));
  await page.keyboard.press('End');
  await expect.poll(splitValue).toBe(Number(await split().getAttribute('aria-valuemax')));
  await expect.poll(async () => (await page.locator('.run-graph').boundingBox())?.height ?? 0).toBeGreaterThan(150);
  for (let i = 0; i < 40 && (await splitValue()) > start; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect.poll(splitValue).toBeGreaterThan(start);
});

test('the legend folds away, remembered, and more rows show', async () => {
  await openRun();
  const legend = page.getByTestId('timeline-legend');
  const toggle = page.getByRole('button', { name: 'Legend' });
  await expect(legend).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const rowsBefore = await rowsThatFit();
  await toggle.click();
  await expect(legend).toHaveCount(0);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(rowsThatFit).toBeGreaterThan(rowsBefore);
  await shootBothThemes(page, 'run-timeline-legend-folded', { ...appChrome(page), timeline: page.getByTestId('run-timeline'), 'legend button': toggle });

  await page.reload();
  await expect(page.locator('.tl-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Legend' })).toHaveAttribute('aria-expanded', 'false');
  await expect(legend).toHaveCount(0);
  await page.getByRole('button', { name: 'Legend' }).click();
  await expect(legend).toBeVisible();
});
