// Whether the Problems dock under the canvas is open. It follows the problems: it folds to its
// one-line bar when there are none and opens when some appear; in between, the user opens and
// folds it (the bar's button, P, the View menu) and that choice holds until the next change
// between none and some. Per session: what to show next time depends on that workflow's problems.
import { create } from 'zustand';

interface ProblemsDockState {
  open: boolean;
  /** Whether the last problems seen were none: a change of it opens or folds the dock. */
  empty: boolean | null;
  toggle(): void;
  /** Called with the current problems' count each time it changes. */
  follow(count: number): void;
}

export const useProblemsDock = create<ProblemsDockState>((set, get) => ({
  open: false,
  empty: null,
  toggle() {
    set({ open: !get().open });
  },
  follow(count) {
    const empty = count === 0;
    if (empty !== get().empty) set({ empty, open: !empty });
  },
}));
