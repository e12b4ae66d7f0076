// <Timeline> mounted in a real browser (Debian's chromium, driven by Playwright), built by
// esbuild from the real component and the shared fold: no jsdom, since the view measures its
// width and scrolls. Every wait is for a state in the page, never for time.
import type { Browser, Page } from '@playwright/test';
import { bundleHarness, collectPageErrors, launchChromium, newHarnessPage, remountHarness, shootBothThemes } from '../browser-harness.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TIMELINE_HARNESS } from './timeline-harness.ts';

let browser: Browser;
let page: Page;
const files = new Map<string, { type: string; body: string }>();
const ORIGIN = 'http://weft.test';
let pageErrors: string[] = [];

const VIEWPORT = { width: 1000, height: 420 };

// One page for every test, its harness mounted anew for each (a fresh page costs seconds).
beforeAll(async () => {
  for (const [path, file] of await bundleHarness(TIMELINE_HARNESS, 'timeline-harness.tsx', { bodyStyle: 'margin:0' })) files.set(path, file);
  browser = await launchChromium();
  page = await newHarnessPage(browser, { viewport: VIEWPORT });
  pageErrors = collectPageErrors(page);
  await page.route(`${ORIGIN}/**`, (route) => {
    const file = files.get(new URL(route.request().url()).pathname);
    return file === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ status: 200, contentType: file.type, body: file.body });
  });
  await page.goto(`${ORIGIN}/`);
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  await remountHarness(page, VIEWPORT);
  await page.getByTestId('timeline-row').first().waitFor();
});

afterEach(() => {
  // Nothing the timeline does may throw or log an error (the page's loading counts for the first).
  expect(pageErrors.splice(0)).toEqual([]);
});

const js = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
const range = async (): Promise<{ start: number; end: number }> => {
  const el = page.getByTestId('timeline-range');
  return { start: Number(await el.getAttribute('data-start')), end: Number(await el.getAttribute('data-end')) };
};
/** Attributes of every element matching `selector`, joined by '/'. */
const attrs = (selector: string, ...names: string[]): Promise<string[]> =>
  js<string[]>(`[...document.querySelectorAll('${selector}')].map((e) => [${names.map((n) => `e.getAttribute('${n}')`).join(', ')}].join('/'))`);
const bar = (step: string, activation: number, outcome: string) => page.locator(`[data-testid="timeline-row"][data-step="${step}"][data-activation="${activation}"] [data-testid="timeline-bar"][data-outcome="${outcome}"]`);

describe('Timeline in chromium', () => {
  it('draws a row per activation in start order, bars by outcome and kind, and markers', async () => {
    const keys = await attrs('[data-testid="timeline-row"]', 'data-step', 'data-activation');
    expect(keys).toEqual(['/', 'fetch/1', 'review/1', 'notify/1', 'charge/1', 'charge/2']);
    expect(await bar('fetch', 1, 'failed').count()).toBe(1);
    expect(await bar('fetch', 1, 'succeeded').count()).toBe(1);
    expect(await page.locator('[data-step="fetch"] [data-kind="retry_wait"]').count()).toBe(1);
    expect(await page.locator('[data-step="review"] [data-kind="waiting_person"]').count()).toBe(1);
    expect(await page.locator('[data-step="notify"] [data-kind="waiting_event"]').count()).toBe(1);
    expect(await page.locator('[data-step=""] [data-kind="needs_attention"]').count()).toBe(1);
    const markers = (await attrs('[data-testid="timeline-marker"]', 'data-kind')).sort();
    expect(markers).toEqual(['escalation', 'event', 'operator', 'operator', 'restart', 'revision']);
  });

  it('shows the times of the bar under the pointer', async () => {
    await bar('fetch', 1, 'failed').hover();
    const tip = page.getByTestId('timeline-tooltip');
    await tip.waitFor();
    expect(await page.getByTestId('timeline-tooltip-kind').textContent()).toBe('attempt 1 ran and failed');
    expect(await page.getByTestId('timeline-tooltip-start').textContent()).toBe('09:00:01.100');
    expect(await page.getByTestId('timeline-tooltip-end').textContent()).toBe('09:00:01.600');
    expect(await page.getByTestId('timeline-tooltip-duration').textContent()).toBe('500ms');
    expect(await tip.textContent()).toContain('attempt 1');
    expect(await tip.textContent()).toContain('failed');
    await page.mouse.move(5, 5);
    await tip.waitFor({ state: 'detached' });
  });

  it('selects the attempt clicked, outlines it, and follows a selection made elsewhere', async () => {
    await bar('fetch', 1, 'succeeded').click();
    await expect.poll(() => js<unknown>('window.harness.selections.at(-1)')).toEqual({ stepId: 'fetch', activation: 1, attempt: 2 });
    await expect.poll(() => bar('fetch', 1, 'succeeded').getAttribute('data-selected')).toBe('true');
    expect(await bar('fetch', 1, 'failed').getAttribute('data-selected')).toBeNull();
    await js(`window.harness.setSelected({ stepId: 'charge', activation: 2 })`);
    await expect.poll(() => attrs('[data-testid="timeline-row"][data-selected]', 'data-step', 'data-activation')).toEqual(['charge/2']);
  });

  it('zooms with the buttons and Ctrl+wheel, pans by dragging, and fits again', async () => {
    const before = await range();
    await page.getByTestId('timeline-zoom-in').click();
    await expect.poll(async () => { const r = await range(); return (r.end - r.start) / (before.end - before.start); }).toBeCloseTo(1 / 1.5, 5);
    const box = await page.locator('[data-step="review"]').boundingBox();
    if (box === null) throw new Error('no review row');
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await expect.poll(async () => { const r = await range(); return r.end - r.start; }).toBeLessThan((before.end - before.start) / 1.5 - 1);
    const zoomed = await range();
    // Drag left by 200 px: the window moves later by 200 px worth of time.
    await page.mouse.move(box.x + 500, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + 300, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const panned = await range();
    expect(panned.end - panned.start).toBeCloseTo(zoomed.end - zoomed.start, 3);
    expect(panned.start).toBeGreaterThan(zoomed.start);
    // A drag is not a click: nothing was selected.
    expect(await js<number>('window.harness.selections.length')).toBe(0);
    await page.getByTestId('timeline-fit').click();
    await expect.poll(async () => (await range()).end - (await range()).start).toBeGreaterThan(before.end - before.start - 1);
  });

  it('moves between rows and bars with the keyboard and selects with Enter', async () => {
    await page.locator('.tl-scroll').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    // fetch's bars: queued, attempt 1, the retry wait (for attempt 2).
    await expect.poll(() => js<unknown>('window.harness.selections.at(-1)')).toEqual({ stepId: 'fetch', activation: 1, attempt: 1 });
    expect(await js<string>(`document.querySelector('.tl-scroll').getAttribute('aria-activedescendant')`)).toBe('timeline-row-1');
    await page.keyboard.press('-');
    await page.keyboard.press('0');
  });

  it('follows the right edge of a live run as it grows, until the user pans away', async () => {
    expect(await page.getByTestId('timeline').getAttribute('data-following')).toBe('true');
    await js('window.harness.grow(60000)');
    await page.locator('[data-step^="grown_"]').first().waitFor();
    const grownEnd = (await range()).end;
    const lastBar = await page.locator('[data-step^="grown_"] [data-testid="timeline-bar"]').last().boundingBox();
    const track = await page.locator('.tl-scroll').boundingBox();
    if (lastBar === null || track === null) throw new Error('no bar');
    // The new work is in view, at the right.
    expect(lastBar.x).toBeGreaterThan(track.x + track.width / 2);
    expect(lastBar.x + lastBar.width).toBeLessThanOrEqual(track.x + track.width + 1);
    // Pan away (to the start): growth no longer moves the view.
    await page.locator('.tl-scroll').focus();
    const box = await page.locator('[data-step="fetch"]').boundingBox();
    if (box === null) throw new Error('no fetch row');
    await page.mouse.move(box.x + 300, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 700, box.y + 10, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('timeline').getAttribute('data-following')).toBeNull();
    const away = await range();
    expect(away.end).toBeLessThan(grownEnd);
    await js('window.harness.grow(60000)');
    await expect.poll(() => page.locator('[data-step^="grown_"]').count()).toBe(2);
    expect(await range()).toEqual(away);
  });

  it('renders only the rows in view of a 100,000-event run, and scrolls to its end', async () => {
    await js('window.harness.useBig()');
    await expect.poll(() => page.getByTestId('timeline-range').textContent()).toContain('25000 activations');
    const rows = await page.getByTestId('timeline-row').count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(60);
    await page.locator('.tl-scroll').focus();
    await page.keyboard.press('End');
    await page.locator('[data-step="b"][data-activation="12500"]').waitFor();
    expect(await page.getByTestId('timeline-row').count()).toBeLessThan(60);
    // Zoomed into its last pass, only the bars in the window are drawn.
    for (let i = 0; i < 12; i++) await page.getByTestId('timeline-zoom-in').click();
    await expect.poll(() => page.getByTestId('timeline-bar').count()).toBeLessThan(rows * 2);
  });

  it('looks right in both themes (screenshots for a person to check, asserting what they show)', async () => {
    await bar('fetch', 1, 'failed').click();
    await bar('charge', 2, 'succeeded').hover();
    await page.getByTestId('timeline-tooltip').waitFor();
    await shootBothThemes(page, 'timeline', {
      'zoom out': page.getByTestId('timeline-zoom-out'),
      'zoom in': page.getByTestId('timeline-zoom-in'),
      'whole run': page.getByTestId('timeline-fit'),
      range: page.getByTestId('timeline-range'),
      legend: page.getByTestId('timeline-legend'),
      'the failed fetch': bar('fetch', 1, 'failed'),
      'the hovered charge': bar('charge', 2, 'succeeded'),
      tooltip: page.getByTestId('timeline-tooltip'),
    });
  });
});
