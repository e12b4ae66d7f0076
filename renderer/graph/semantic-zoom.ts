// Semantic zoom (issue 21): what a step node draws depends on the canvas's zoom, so a title stays
// readable (11 px or more on screen) at the zoom that fits a workflow, and a large graph at its
// overview draws little. Levels, decided by zoom alone:
// - full: everything (icon, title, id and kind, effect and retry hints);
// - compact: the title alone, counter-scaled (its canvas font grows as the zoom shrinks, so its
//   size on screen stays at 11 px), on as many lines as the box holds; the run's marks on the
//   border, a map's failed items and the insights figures stay;
// - far: the box alone, coloured by kind or state: no title can be read at that zoom.
// The node's box keeps its size at every level, so edges meet it where they always did.
import { NODE_HEIGHT } from './to-flow.ts';

export type ZoomLevel = 'full' | 'compact' | 'far';

/** The smallest size, in screen pixels, a node's title is drawn at from the compact level up. */
export const MIN_TITLE_SCREEN_PX = 11;
/** The title's own font size at full detail (--fs-md). */
const FULL_TITLE_PX = 13;
/** From this zoom the full title (13 px in the canvas) is 11 px or more on screen. */
export const FULL_FROM = MIN_TITLE_SCREEN_PX / FULL_TITLE_PX;
/** Below this zoom no title fits the box at 11 px on screen: the node is drawn as its box. */
export const FAR_BELOW = 0.2;
/** The compact node's text height: the box less its padding (6 px above and below). */
const COMPACT_TEXT_HEIGHT = NODE_HEIGHT - 12;
const LINE_HEIGHT = 1.15;

export function zoomLevel(zoom: number): ZoomLevel {
  return zoom >= FULL_FROM ? 'full' : zoom >= FAR_BELOW ? 'compact' : 'far';
}

/**
 * The compact title's font size in canvas pixels, and how many lines of it the box holds. The zoom
 * is rounded down to a hundredth first, so the size changes in steps (each restyles every node)
 * and is never smaller than 11 px on screen.
 *
 * @example
 * compactTitle(0.41); // { px: 26.9, lines: 2 }
 */
export function compactTitle(zoom: number): { px: number; lines: number } {
  const stepped = Math.max(FAR_BELOW, Math.floor(zoom * 100) / 100);
  const px = Math.ceil((MIN_TITLE_SCREEN_PX * 10) / stepped) / 10;
  const lines = Math.max(1, Math.min(3, Math.floor(COMPACT_TEXT_HEIGHT / (px * LINE_HEIGHT))));
  return { px, lines };
}
