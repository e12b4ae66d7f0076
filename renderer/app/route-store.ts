// The app's location, kept in the address's fragment (#/runs/ID) so reload and back work and
// a view can be linked to. One parse, one format; views read it through narrow selectors.
import { create } from 'zustand';

export type Route =
  | { page: 'workflows' }
  | { page: 'workflow'; id: string }
  | { page: 'runs'; workflow?: string }
  | { page: 'run'; id: string }
  | { page: 'tasks' }
  | { page: 'insights'; id: string }
  | { page: 'compare'; a: string; b: string };

export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '')
    .map(safeDecode);
  const [page, id] = parts;
  if (page === 'workflow' && id !== undefined) return { page: 'workflow', id };
  if (page === 'runs') return id === undefined ? { page: 'runs' } : { page: 'runs', workflow: id };
  if (page === 'run' && id !== undefined) return { page: 'run', id };
  if (page === 'tasks') return { page: 'tasks' };
  if (page === 'insights' && id !== undefined) return { page: 'insights', id };
  if (page === 'compare' && id !== undefined && parts[2] !== undefined) return { page: 'compare', a: id, b: parts[2] };
  return { page: 'workflows' };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function formatRoute(route: Route): string {
  switch (route.page) {
    case 'workflows':
      return '#/workflows';
    case 'workflow':
      return `#/workflow/${encodeURIComponent(route.id)}`;
    case 'runs':
      return route.workflow === undefined ? '#/runs' : `#/runs/${encodeURIComponent(route.workflow)}`;
    case 'run':
      return `#/run/${encodeURIComponent(route.id)}`;
    case 'tasks':
      return '#/tasks';
    case 'insights':
      return `#/insights/${encodeURIComponent(route.id)}`;
    case 'compare':
      return `#/compare/${encodeURIComponent(route.a)}/${encodeURIComponent(route.b)}`;
  }
}

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
