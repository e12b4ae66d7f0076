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

/** Asked before the app goes elsewhere; false stays (the editor asks about unsaved changes). */
let leaveGuard: ((to: Route) => boolean) | null = null;

export function setLeaveGuard(guard: ((to: Route) => boolean) | null): void {
  leaveGuard = guard;
}

export const useRoute = create<RouteStore>((set) => ({
  route: parseRoute(typeof window === 'undefined' ? '' : window.location.hash),
  go(route) {
    if (leaveGuard !== null && !leaveGuard(route)) return;
    const hash = formatRoute(route);
    if (window.location.hash !== hash) window.history.pushState(null, '', hash);
    set({ route });
  },
}));

/** Keeps the store in step with back/forward and typed addresses. */
export function followHashChanges(): () => void {
  const sync = () => useRoute.setState({ route: parseRoute(window.location.hash) });
  window.addEventListener('popstate', sync);
  window.addEventListener('hashchange', sync);
  return () => {
    window.removeEventListener('popstate', sync);
    window.removeEventListener('hashchange', sync);
  };
}
