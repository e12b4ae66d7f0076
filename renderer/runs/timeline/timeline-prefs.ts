// How the run page shares its height between the graph and the timeline, and whether the
// timeline's legend is open: chosen by the user, kept across sessions in localStorage.
import { create } from 'zustand';

/** The timeline's height before the user sets one: a share of the page, between two bounds (px). */
export function defaultTimelineHeight(pageHeight: number): number {
  return Math.round(Math.min(260, Math.max(170, pageHeight * 0.32)));
}

interface TimelinePrefs {
  /** The timeline's height in px, as the user left it; null until the user sets one. */
  height: number | null;
  legendOpen: boolean;
  setHeight(px: number): void;
  toggleLegend(): void;
}

const KEY = 'weft.timeline.prefs';

function load(): Pick<TimelinePrefs, 'height' | 'legendOpen'> {
  const fallback = { height: null, legendOpen: true };
  try {
    const raw: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return fallback;
    const height: unknown = Reflect.get(raw, 'height');
    const legendOpen: unknown = Reflect.get(raw, 'legendOpen');
    return {
      height: typeof height === 'number' && Number.isFinite(height) && height > 0 ? height : fallback.height,
      legendOpen: typeof legendOpen === 'boolean' ? legendOpen : fallback.legendOpen,
    };
  } catch {
    return fallback;
  }
}

function save(prefs: Pick<TimelinePrefs, 'height' | 'legendOpen'>): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify({ height: prefs.height, legendOpen: prefs.legendOpen }));
  } catch {
    // A full or blocked storage only loses the preference.
  }
}

export const useTimelinePrefs = create<TimelinePrefs>((set, get) => ({
  ...load(),
  setHeight(px) {
    set({ height: Math.round(px) });
    save(get());
  },
  toggleLegend() {
    set({ legendOpen: !get().legendOpen });
    save(get());
  },
}));
