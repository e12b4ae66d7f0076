// Navigation with live counts: workflows, the runs of the list's first page (`50+` when there are
// more: the list is paged), open tasks. Each count reads its query from the cache.
import { Inbox, ListChecks, ShieldCheck, Workflow } from 'lucide-react';
import type { ReactNode } from 'react';
import { useRoute, type Route } from '../core/route-store.ts';
import { useWorkflowList } from '../core/workflow-queries.ts';
import { useRunsList } from '../core/runs-list-query.ts';
import { useTaskList } from '../core/task-queries.ts';
import { useSession } from '../core/session-store.ts';
import { ruleCount, usePolicyRules } from '../policy/policy-store.ts';

export function Sidebar() {
  const workflows = useWorkflowList().data?.length;
  const firstRuns = useRunsList(NO_FILTER).data?.pages[0];
  const runs = firstRuns === undefined ? undefined : `${firstRuns.runs.length}${firstRuns.next === null ? '' : '+'}`;
  const tasks = useTaskList().data?.length;
  const version = useSession((s) => s.health?.version);
  const policy = usePolicyRules();
  // Read from the cache only (the editor and the policy page read the file): the sidebar of every
  // page does not ask the server to check each workflow against the policy.
  const policyRules = !policy.known ? null : policy.rules === null ? 'off' : ruleCount(policy.rules);
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
        <NavItem to={{ page: 'workflows' }} match={['workflows', 'workflow', 'file']} icon={<Workflow size={16} aria-hidden="true" />} label="Workflows" count={workflows} />
        <NavItem to={{ page: 'runs' }} match={['runs', 'run']} icon={<ListChecks size={16} aria-hidden="true" />} label="Runs" count={runs} />
        <NavItem to={{ page: 'tasks' }} match={['tasks']} icon={<Inbox size={16} aria-hidden="true" />} label="Tasks" count={tasks} />
        <NavItem to={{ page: 'policy' }} match={['policy']} icon={<ShieldCheck size={16} aria-hidden="true" />} label="Policy" count={policyRules} />
      </div>
      <div className="sidebar-foot">{version ? `engine ${version}` : '\u00a0'}</div>
    </nav>
  );
}

const NO_FILTER = {};

/** `count` undefined: not read yet (a dash); null: this item shows no count until something else has read it. */
function NavItem(props: { to: Route; match: Route['page'][]; icon: ReactNode; label: string; count: number | string | undefined | null }) {
  const current = useRoute((s) => props.match.includes(s.route.page));
  const go = useRoute((s) => s.go);
  return (
    <button type="button" className="nav-item" title={props.label} aria-current={current ? 'page' : undefined} onClick={() => go(props.to)} data-testid={`nav-${props.label.toLowerCase()}`}>
      {props.icon}
      <span className="nav-label">{props.label}</span>
      {props.count === null ? null : (
        <span className="count" aria-label={`${props.count ?? 'unknown'} ${props.label.toLowerCase()}`}>
          {props.count ?? '–'}
        </span>
      )}
    </button>
  );
}
