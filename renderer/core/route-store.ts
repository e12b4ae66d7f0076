// The app's location, kept in the address's fragment (#/runs/ID) so reload and back work and
// a view can be linked to. One parse, one format; views read it through narrow selectors.
import { create } from 'zustand';
import { formatRoute, parseRoute, type Route } from './route.ts';

export type { Route };
export { formatRoute, parseRoute };

interface RouteStore {
  route: Route;
  go(route: Route): void;
}

/**
 * Asked before the app goes elsewhere, by a link of the app or the browser's Back and Forward:
 * true goes now; false stays, and the guard calls `leave` later if the user chooses to go after
 * all (the editor asks about unsaved changes in the app's own dialog).
 */
export type LeaveGuard = (to: Route, leave: () => void) => boolean;

let leaveGuard: LeaveGuard | null = null;

export function setLeaveGuard(guard: LeaveGuard | null): void {
  leaveGuard = guard;
}

export const useRoute = create<RouteStore>((set) => ({
  route: parseRoute(typeof window === 'undefined' ? '' : window.location.hash),
  go(route) {
    const show = (): void => {
      const hash = formatRoute(route);
      if (window.location.hash !== hash) window.history.pushState(null, '', hash);
      set({ route });
    };
    if (leaveGuard !== null && !leaveGuard(route, show)) return;
    show();
  },
}));

/**
 * Keeps the store in step with back/forward and typed addresses. A move the leave guard holds
 * puts the page's own address back at once (the browser has already moved it); leaving after all
 * goes back again, past the guard.
 */
export function followHashChanges(): () => void {
  let passing = false;
  const sync = () => {
    const to = parseRoute(window.location.hash);
    const from = useRoute.getState().route;
    if (formatRoute(to) === formatRoute(from)) return;
    if (!passing && leaveGuard !== null) {
      const back = window.location.hash;
      const leave = (): void => {
        passing = true;
        // The address the browser went to, with the history as it would have been.
        if (window.location.hash !== back) window.history.back();
        else passing = false;
      };
      if (!leaveGuard(to, leave)) {
        window.history.pushState(null, '', formatRoute(from));
        return;
      }
    }
    passing = false;
    useRoute.setState({ route: to });
  };
  window.addEventListener('popstate', sync);
  window.addEventListener('hashchange', sync);
  return () => {
    window.removeEventListener('popstate', sync);
    window.removeEventListener('hashchange', sync);
  };
}
