// Semantic zoom's arithmetic (renderer/graph/semantic-zoom.ts): the compact title is 11 px or more
// on screen at every zoom of its level, its lines fit the node's box, and the levels meet.
import { describe, expect, it } from 'vitest';
import { compactTitle, FAR_BELOW, FULL_FROM, MIN_TITLE_SCREEN_PX, zoomLevel } from '../../renderer/graph/semantic-zoom.ts';
import { NODE_HEIGHT } from '../../renderer/graph/to-flow.ts';

const zooms = Array.from({ length: 400 }, (_, i) => FAR_BELOW + ((FULL_FROM - FAR_BELOW) * i) / 399).concat([0.41, 0.44, 0.5, 0.58]);

describe('semantic zoom', () => {
  it('draws the full node from the zoom where 13 px reads as 11 px, the box alone below 0.2, the compact node between', () => {
    expect(zoomLevel(1)).toBe('full');
    expect(zoomLevel(FULL_FROM)).toBe('full');
    expect(13 * FULL_FROM).toBeGreaterThanOrEqual(MIN_TITLE_SCREEN_PX);
    expect(zoomLevel(FULL_FROM - 0.001)).toBe('compact');
    expect(zoomLevel(0.41)).toBe('compact');
    expect(zoomLevel(FAR_BELOW)).toBe('compact');
    expect(zoomLevel(FAR_BELOW - 0.001)).toBe('far');
  });

  it('sizes the compact title at 11 px or more on screen, on lines that fit the box less its padding', () => {
    for (const zoom of zooms.filter((z) => zoomLevel(z) === 'compact')) {
      const { px, lines } = compactTitle(zoom);
      expect(px * zoom, `zoom ${zoom}`).toBeGreaterThanOrEqual(MIN_TITLE_SCREEN_PX);
      expect(lines).toBeGreaterThanOrEqual(1);
      expect(lines * px * 1.15, `zoom ${zoom}`).toBeLessThanOrEqual(NODE_HEIGHT - 12);
    }
    // The examples' opening zooms (0.41 to 0.58 in the issue): two lines of 26.9 px at 0.41.
    expect(compactTitle(0.41)).toEqual({ px: 26.9, lines: 2 });
  });
});
