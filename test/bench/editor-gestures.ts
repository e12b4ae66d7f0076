// The gestures the editor bench times: a pan of the pane, a drag of one node, and one keystroke in
// an inspector field. The mouse is driven through Playwright as a user's would be: each move is a
// real input event, sent as soon as the page has taken the previous one, along a loop so the
// view ends where it started.
import type { Page } from '@playwright/test';
import {
  armKeystroke,
  emptyPanePoint,
  frames2,
  viewState,
  type ViewState,
  hasValidationProbe,
  innerNode,
  keystrokeResult,
  startFrames,
  stopFrames,
  validationSettled,
  type FrameStats,
  type KeystrokeResult,
  type Point,
} from './editor-probe.ts';

export const GESTURE_MS = 2_000;

export interface GestureResult {
  frames: FrameStats;
  /** Mouse moves the page took during the gesture. */
  moves: number;
}

/** Presses at `from`, moves round an ellipse (two laps in GESTURE_MS), releases at `from`. */
async function sweep(page: Page, from: Point, radius: Point): Promise<GestureResult> {
  await page.mouse.move(from.x, from.y);
  await startFrames(page);
  await page.mouse.down();
  const started = performance.now();
  let moves = 0;
  for (let elapsed = 0; elapsed < GESTURE_MS; elapsed = performance.now() - started) {
    const angle = (elapsed / GESTURE_MS) * 4 * Math.PI;
    await page.mouse.move(from.x + radius.x * Math.sin(angle), from.y + radius.y * (1 - Math.cos(angle)));
    moves += 1;
  }
  await page.mouse.move(from.x, from.y);
  await page.mouse.up();
  return { frames: await stopFrames(page), moves };
}

export async function pan(page: Page): Promise<GestureResult> {
  const at = await emptyPanePoint(page);
  if (at === null) throw new Error('editor bench: no empty spot of the pane to press on for a pan');
  return sweep(page, at, { x: 240, y: -90 });
}

const DRAG_RADIUS = { x: 120, y: 50 };

/** Drags a node round an ellipse that keeps the pointer away from the edges, so React Flow never auto-pans. */
export async function dragNode(page: Page): Promise<GestureResult & { id: string }> {
  const node = await innerNode(page, { x: DRAG_RADIUS.x, y: 2 * DRAG_RADIUS.y });
  if (node === null) throw new Error('editor bench: no visible node has room around it for the drag (is the canvas too small?)');
  return { ...(await sweep(page, node, DRAG_RADIUS)), id: node.id };
}

/**
 * The whole view: the zoom the editor's own Fit (the toolbar's "fit view", F) gives for the whole
 * workflow. Clicks the button and waits until the camera's animated move has ended (the zoom is the
 * same over several frames), then one more frame round so what it draws is painted.
 */
export async function fitWhole(page: Page): Promise<ViewState> {
  await page.getByRole('toolbar', { name: 'editor' }).getByRole('button', { name: 'fit view' }).click();
  let state = await viewState(page);
  for (let still = 0; still < 5; ) {
    await frames2(page);
    const next = await viewState(page);
    still = next.zoom === state.zoom ? still + 1 : 0;
    state = next;
  }
  await frames2(page);
  return viewState(page);
}

export type KeystrokeSetup = { ok: true; field: string } | { ok: false; why: string };

/** Selects a step by clicking its node and focuses its name field, caret at the end. */
export async function focusStepField(page: Page): Promise<KeystrokeSetup> {
  if (!(await hasValidationProbe(page))) return { ok: false, why: 'the page has no window.__weftValidation (the live validation store is not in this build)' };
  const node = await innerNode(page, { x: 0, y: 0 });
  if (node === null) return { ok: false, why: 'no node in view to select' };
  await page.mouse.click(node.x, node.y);
  for (const path of ['name', 'description']) {
    const field = page.getByTestId(`field-${path}`).first();
    try {
      await field.waitFor({ state: 'visible', timeout: 5_000 });
    } catch {
      continue;
    }
    await field.click();
    await page.keyboard.press('End');
    return { ok: true, field: `step ${node.id}: field-${path}` };
  }
  return { ok: false, why: 'selecting a step shows no inspector field data-testid="field-name" or "field-description" (the inspector is not in this build)' };
}

/** One character typed into the focused field, until the validation run it starts has answered. */
export async function keystroke(page: Page, char: string): Promise<KeystrokeResult> {
  await validationSettled(page, 60_000);
  await armKeystroke(page);
  await page.keyboard.type(char);
  return keystrokeResult(page, 30_000);
}
