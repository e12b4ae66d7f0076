// The start form, loaded when it opens: its Debug section draws the workflow with React Flow,
// which no list needs to show. `preloadStartRunDialog` fetches it ahead, once the page that
// offers "Start a run" has been quiet a moment, so a click rarely waits for it.
import { lazy, useEffect } from 'react';

const loadStart = () => import('./start-run-dialog.tsx');

export const StartRunDialog = lazy(() => loadStart().then((m) => ({ default: m.StartRunDialog })));

let preloaded = false;

/** Fetches the start form's code, once per page load (a failure shows at the click that needs it). */
export function preloadStartRunDialog(): void {
  if (preloaded) return;
  preloaded = true;
  loadStart().catch(() => undefined);
}

/** How long a page that offers "Start a run" is left alone before the form is fetched: its own data first. */
const QUIET_MS = 1500;

/** Preloads the start form once the page has been up QUIET_MS and the main thread is idle. */
export function usePreloadStartRunDialog(): void {
  useEffect(() => {
    if (preloaded) return;
    let idle: number | null = null;
    const timer = window.setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(preloadStartRunDialog, { timeout: 2000 });
      else preloadStartRunDialog();
    }, QUIET_MS);
    return () => {
      window.clearTimeout(timer);
      if (idle !== null) window.cancelIdleCallback(idle);
    };
  }, []);
}
