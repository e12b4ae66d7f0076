// The window's size, position and maximized state, remembered across launches in the app-data
// folder. A missing, corrupt or foreign file means defaults (the window is never kept from
// opening by its own bookkeeping), and a position saved on a display that is gone now (a laptop
// undocked from its monitor) is pulled back onto one that exists.
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeAppDataFile } from './app-data-file.ts';
import type { Rect } from './electron-seam.ts';

const dimension = z.number().int().min(200).max(20_000);
const coordinate = z.number().int().min(-50_000).max(50_000);
const windowStateSchema = z.object({
  bounds: z.object({ x: coordinate, y: coordinate, width: dimension, height: dimension }),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export const windowStateFile = (userData: string): string => join(userData, 'window-state.json');

/** The saved state, or undefined (use defaults) when there is none worth trusting. */
export function loadWindowState(userData: string): WindowState | undefined {
  const parsed = windowStateSchema.safeParse(readJsonFile(windowStateFile(userData)));
  return parsed.success ? parsed.data : undefined;
}

export function saveWindowState(userData: string, state: WindowState): void {
  writeAppDataFile(windowStateFile(userData), `${JSON.stringify(windowStateSchema.parse(state), null, 2)}\n`);
}

/** How much of the window's title bar must lie on a display for it to count as reachable. */
const GRIP = 64;

const overlaps = (a: Rect, b: Rect): boolean => a.x + GRIP <= b.x + b.width && a.x + a.width - GRIP >= b.x && a.y >= b.y && a.y + GRIP <= b.y + b.height;

/**
 * The bounds to open with on these displays: the saved ones if the window's top edge is reachable
 * on some display, else the same size (shrunk to fit) centred on the first display.
 */
export function onScreen(bounds: Rect, displays: readonly Rect[]): Rect {
  if (displays.some((d) => overlaps(bounds, d))) return bounds;
  const target = displays[0];
  if (target === undefined) return bounds;
  const width = Math.min(bounds.width, target.width);
  const height = Math.min(bounds.height, target.height);
  return { x: target.x + Math.round((target.width - width) / 2), y: target.y + Math.round((target.height - height) / 2), width, height };
}

/** Saves the window's state whenever it is about to close (normal bounds, so un-maximizing restores the old size). */
export function trackWindowState(window: WindowLike, userData: string, onError: (message: string) => void = () => undefined): void {
  window.on('close', () => {
    try {
      saveWindowState(userData, { bounds: window.getNormalBounds(), maximized: window.isMaximized() });
    } catch (e) {
      onError(`could not remember the window's size in ${windowStateFile(userData)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
}

interface WindowLike {
  on(event: 'close', listener: () => void): void;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
}
