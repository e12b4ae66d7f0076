// Navigation with live counts. Each count is its own narrow subscription.
import { Inbox, ListChecks, Workflow } from 'lucide-react';
import type { ReactNode } from 'react';
import { useRoute, type Route } from '../core/route-store.ts';
import { useWorkflows } from '../core/workflows-store.ts';
import { useRuns } from '../core/runs-store.ts';
import { useTasks } from '../core/tasks-store.ts';
import { useSession } from '../core/session-store.ts';

export function Sidebar() {
  const workflows = useWorkflows((s) => s.list.data?.length);
  const runs = useRuns((s) => (s.listLoaded ? s.order.length : undefined));
  const tasks = useTasks((s) => s.tasks?.length);
  const version = useSession((s) => s.health?.version);
  return (
    <nav className="sidebar" aria-label="main">
      <div className="brand">
        <svg className="brand-mark" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
          <path d="M3 6c4 0 4 12 9 12s5-12 9-12" />
          <path d="M3 18c4 0 4-12 9-12s5 12 9 12" opacity="0.55" />
        </svg>
        <span className="brand-name">Weft Studio</span>
      </div>
      <div className="nav">
        <NavItem to={{ page: 'workflows' }} match={['workflows', 'workflow']} icon={<Workflow size={16} aria-hidden="true" />} label="Workflows" count={workflows} />
        <NavItem to={{ page: 'runs' }} match={['runs', 'run']} icon={<ListChecks size={16} aria-hidden="true" />} label="Runs" count={runs} />
        <NavItem to={{ page: 'tasks' }} match={['tasks']} icon={<Inbox size={16} aria-hidden="true" />} label="Tasks" count={tasks} />
      </div>
      <div className="sidebar-foot">{version ? `engine ${version}` : '\u00a0'}</div>
    </nav>
  );
}

function NavItem(props: { to: Route; match: Route['page'][]; icon: ReactNode; label: string; count: number | undefined }) {
  const current = useRoute((s) => props.match.includes(s.route.page));
  const go = useRoute((s) => s.go);
  return (
    <button type="button" className="nav-item" title={props.label} aria-current={current ? 'page' : undefined} onClick={() => go(props.to)} data-testid={`nav-${props.label.toLowerCase()}`}>
      {props.icon}
      <span className="nav-label">{props.label}</span>
      <span className="count" aria-label={`${props.count ?? 'unknown'} ${props.label.toLowerCase()}`}>
        {props.count ?? '–'}
      </span>
    </button>
  );
}
