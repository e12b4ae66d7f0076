// The app's location as data: one parse of the address's fragment (#/runs/ID) and one format.
// Apart from the store so DOM-free modules and tests can use it.
export type Route =
  | { page: 'workflows' }
  | { page: 'workflow'; id: string }
  /** A workspace file by its path (one that is not a readable workflow has no id): its text and findings. */
  | { page: 'file'; file: string }
  | { page: 'runs'; workflow?: string }
  | { page: 'run'; id: string }
  | { page: 'tasks' }
  /** The workspace policy (weft.policy.json). */
  | { page: 'policy' }
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
  if (page === 'file' && id !== undefined) return { page: 'file', file: id };
  if (page === 'runs') return id === undefined ? { page: 'runs' } : { page: 'runs', workflow: id };
  if (page === 'run' && id !== undefined) return { page: 'run', id };
  if (page === 'tasks') return { page: 'tasks' };
  if (page === 'policy') return { page: 'policy' };
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
    case 'file':
      return `#/file/${encodeURIComponent(route.file)}`;
    case 'runs':
      return route.workflow === undefined ? '#/runs' : `#/runs/${encodeURIComponent(route.workflow)}`;
    case 'run':
      return `#/run/${encodeURIComponent(route.id)}`;
    case 'tasks':
      return '#/tasks';
    case 'policy':
      return '#/policy';
    case 'insights':
      return `#/insights/${encodeURIComponent(route.id)}`;
    case 'compare':
      return `#/compare/${encodeURIComponent(route.a)}/${encodeURIComponent(route.b)}`;
  }
}
