// Where you are, which workspace, which store (on PostgreSQL, with its live workers), whether the
// engine is connected, and the theme switch.
import { FolderOpen, Monitor, Moon, Sun } from 'lucide-react';
import { useRoute } from '../core/route-store.ts';
import { useSession } from '../core/session-store.ts';
import { useTheme } from '../core/theme-store.ts';
import { StoreBadge } from './store-badge.tsx';

export function Header() {
  const route = useRoute((s) => s.route);
  const go = useRoute((s) => s.go);
  const workspace = useSession((s) => s.health?.workspace);
  const connection = useSession((s) => s.connection);
  const choice = useTheme((s) => s.choice);
  const cycle = useTheme((s) => s.cycle);
  const ThemeIcon = choice === 'dark' ? Moon : choice === 'light' ? Sun : Monitor;
  return (
    <header className="header">
      <div className="breadcrumbs">
        {route.page === 'workflow' ? (
          <>
            <button type="button" className="link" onClick={() => go({ page: 'workflows' })}>
              Workflows
            </button>
            <span className="sep">/</span>
            <span className="current">{route.id}</span>
          </>
        ) : route.page === 'file' ? (
          <>
            <button type="button" className="link" onClick={() => go({ page: 'workflows' })}>
              Workflows
            </button>
            <span className="sep">/</span>
            <span className="current mono">{route.file}</span>
          </>
        ) : route.page === 'insights' ? (
          <>
            <button type="button" className="link" onClick={() => go({ page: 'workflows' })}>
              Workflows
            </button>
            <span className="sep">/</span>
            <button type="button" className="link" onClick={() => go({ page: 'workflow', id: route.id })}>
              {route.id}
            </button>
            <span className="sep">/</span>
            <span className="current">Insights</span>
          </>
        ) : route.page === 'compare' ? (
          <>
            <button type="button" className="link" onClick={() => go({ page: 'runs' })}>
              Runs
            </button>
            <span className="sep">/</span>
            <span className="current">
              Compare <span className="mono">{route.a}</span> with <span className="mono">{route.b}</span>
            </span>
          </>
        ) : route.page === 'run' ? (
          <>
            <button type="button" className="link" onClick={() => go({ page: 'runs' })}>
              Runs
            </button>
            <span className="sep">/</span>
            <span className="current mono">{route.id}</span>
          </>
        ) : (
          <span className="current">{route.page === 'workflows' ? 'Workflows' : route.page === 'runs' ? 'Runs' : route.page === 'policy' ? 'Policy' : 'Tasks'}</span>
        )}
      </div>
      <div className="header-spacer" />
      {workspace ? (
        <span className="workspace-chip" title={workspace} data-testid="workspace">
          <FolderOpen size={13} aria-hidden="true" />
          {workspace}
        </span>
      ) : null}
      <StoreBadge />
      <span className="conn" data-state={connection} data-testid="connection" role="status">
        <span className="conn-dot" aria-hidden="true" />
        {connection === 'open' ? 'live' : connection === 'connecting' ? 'connecting' : 'offline'}
      </span>
      <button type="button" className="icon-button" onClick={cycle} aria-label={`theme: ${choice} (switch)`} title={`Theme: ${choice}`} data-testid="theme-toggle">
        <ThemeIcon size={15} aria-hidden="true" />
      </button>
    </header>
  );
}
