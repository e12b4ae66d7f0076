// What a screenshot must show, as an assertion: each named element is there, visible, inside the
// viewport, not cut off by an ancestor that clips or scrolls, and no two of them overlap (an
// element and one it contains are not an overlap). Shared by the Playwright specs (test/e2e/) and
// the renderer's browser tests (test/renderer/), which drive chromium through the same API; it
// returns the problems as sentences, so either runner's expect shows them: `toEqual([])`.
import type { Locator, Page } from '@playwright/test';

/**
 * Pixels two boxes may share, or a box may stick out, before it counts: borders meet, boxes round,
 * and a popover is placed at the text's bottom, a pixel or two inside its line's box.
 */
const SLACK = 2;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Measured {
  box: Box;
  visible: boolean;
  /** The ancestor that cuts off most of the element, and how many pixels. */
  clip: { by: string; cut: number } | null;
}

interface Measurement {
  measured: Measured[];
  /** contains[i][j]: element i holds element j. */
  contains: boolean[][];
  viewport: { w: number; h: number };
}

/** The little of the DOM measureInPage uses (test files are type-checked without the DOM's types). */
interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
interface El {
  tagName: string;
  className: unknown;
  parentElement: El | null;
  clientLeft: number;
  clientTop: number;
  clientWidth: number;
  clientHeight: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Rect;
  checkVisibility(options: { opacityProperty: boolean; visibilityProperty: boolean }): boolean;
  contains(other: El): boolean;
}
interface Win {
  innerWidth: number;
  innerHeight: number;
  getComputedStyle(el: El): { position: string; overflowX: string; overflowY: string };
}

/** Runs in the page (serialized by Playwright): boxes, visibility, clipping and containment. */
function measureInPage(handles: unknown): Measurement {
  const elements = handles as El[];
  const win = globalThis as unknown as Win;
  const describe = (el: El): string => {
    const id = el.getAttribute('data-testid');
    return id !== null ? `[data-testid="${id}"]` : `<${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className !== '' ? ` class="${el.className}"` : ''}>`;
  };
  const measure = (el: El): Measured => {
    const r = el.getBoundingClientRect();
    const box = { x: r.left, y: r.top, w: r.width, h: r.height };
    const visible = r.width > 0 && r.height > 0 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    let clip: Measured['clip'] = null;
    // Every ancestor whose overflow is not visible clips: the box must fit inside its padding
    // box. A fixed element (a dialog, a popover) escapes the ones above it. The deepest cut counts.
    for (let n: El = el, a = el.parentElement; a !== null; n = a, a = a.parentElement) {
      if (win.getComputedStyle(n).position === 'fixed') break;
      const style = win.getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const ar = a.getBoundingClientRect();
      const left = ar.left + a.clientLeft;
      const top = ar.top + a.clientTop;
      const cut = Math.max(left - r.left, top - r.top, r.right - (left + a.clientWidth), r.bottom - (top + a.clientHeight));
      if (cut > (clip?.cut ?? 0)) clip = { by: describe(a), cut };
    }
    return { box, visible, clip };
  };
  return {
    measured: elements.map(measure),
    contains: elements.map((a) => elements.map((b) => a !== b && a.contains(b))),
    viewport: { w: win.innerWidth, h: win.innerHeight },
  };
}

/**
 * Checks that each of `shown` (name → locator, each matching exactly one element) is visible, in
 * the viewport, not clipped, and that none overlaps another. Returns what is wrong, or [].
 *
 * @example
 * expect(await layoutProblems(page, { dialog: page.getByTestId('dialog-pause'), submit: dialog.getByTestId('submit-action') })).toEqual([]);
 */
export async function layoutProblems(page: Page, shown: Record<string, Locator>): Promise<string[]> {
  const problems: string[] = [];
  const names: string[] = [];
  const handles = [];
  for (const [name, locator] of Object.entries(shown)) {
    const count = await locator.count();
    if (count !== 1) {
      problems.push(count === 0 ? `${name}: not in the page` : `${name}: ${count} elements match, expected one`);
      continue;
    }
    const handle = await locator.elementHandle();
    if (handle === null) {
      problems.push(`${name}: not in the page`);
      continue;
    }
    names.push(name);
    handles.push(handle);
  }
  const { measured, contains, viewport } = await page.evaluate(measureInPage, handles);
  await Promise.all(handles.map((h) => h.dispose()));

  const round = (b: Box) => `${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.w)}×${Math.round(b.h)}`;
  measured.forEach((m, i) => {
    const name = names[i] ?? '?';
    if (!m.visible) problems.push(`${name}: not visible (${round(m.box)})`);
    const b = m.box;
    if (b.x < -SLACK || b.y < -SLACK || b.x + b.w > viewport.w + SLACK || b.y + b.h > viewport.h + SLACK) {
      problems.push(`${name}: outside the ${viewport.w}×${viewport.h} viewport (${round(b)})`);
    }
    if (m.clip !== null && m.clip.cut > SLACK) problems.push(`${name}: clipped by ${m.clip.by} by ${Math.round(m.clip.cut)} px`);
  });
  for (let i = 0; i < measured.length; i++) {
    for (let j = i + 1; j < measured.length; j++) {
      const a = measured[i]?.box;
      const b = measured[j]?.box;
      if (a === undefined || b === undefined || contains[i]?.[j] === true || contains[j]?.[i] === true) continue;
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w > SLACK && h > SLACK) problems.push(`${names[i]} and ${names[j]} overlap (${round(a)} and ${round(b)})`);
    }
  }
  return problems;
}
