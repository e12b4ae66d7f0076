// The app's frame: sidebar (Workflows, Runs, Tasks with live counts), header (where you are,
// workspace, connection, theme), the page, and a status bar, inside the provider of the app's one
// cache of server data.
import { lazy, Suspense } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../core/query-client.ts';
import { useRoute } from '../core/route-store.ts';
import { Sidebar } from './sidebar.tsx';
import { Header } from './header.tsx';
import { StatusBar } from './status-bar.tsx';
import { ConnectionBanner } from './connection-banner.tsx';
import { useSession } from '../core/session-store.ts';
import { WorkflowsPage } from '../workflows/workflows-page.tsx';
import { RunsPage } from '../runs/runs-page.tsx';
import { TasksPage } from '../tasks/tasks-page.tsx';
import { FileSourcePage } from '../workflows/file-source-page.tsx';
import type { DesktopApi } from '../../shared/desktop/preload-contract.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ImportProblemsDialog } from '../workflows/import-problems-dialog.tsx';

// The graph views carry React Flow; the lists do not need it to show.
const EditorPage = lazy(() => import('../editor/editor-page.tsx').then((m) => ({ default: m.EditorPage })));
const RunPage = lazy(() => import('../runs/run-page.tsx').then((m) => ({ default: m.RunPage })));
const ComparePage = lazy(() => import('../runs/compare/compare-page.tsx').then((m) => ({ default: m.ComparePage })));
// The desktop shell's menus and dialogs: only the desktop app loads them.
const DesktopShell = lazy(() => import('../desktop/desktop-shell.tsx').then((m) => ({ default: m.DesktopShell })));
const PolicyPage = lazy(() => import('../policy/policy-page.tsx').then((m) => ({ default: m.PolicyPage })));
const InsightsPage = lazy(() => import('../insights/insights-page.tsx').then((m) => ({ default: m.InsightsPage })));

/** `desktop`: the shell's API when the app runs in the desktop app; absent in a browser. */
export function App({ desktop = null }: { desktop?: DesktopApi | null }) {
  const authProblem = useSession((s) => s.authProblem);
  // The editor needs the width: the navigation shrinks to its icons there.
  const compact = useRoute((s) => s.route.page === 'workflow');
  return (
    <QueryClientProvider client={queryClient}>
    <div className="app" data-compact={compact ? 'true' : undefined}>
      <Sidebar />
      <div className="main">
        <Header />
        <ConnectionBanner />
        <main className="content" id="content">
          {authProblem !== null ? <div className="error-box" role="alert">{authProblem}</div> : <Page />}
        </main>
      </div>
      <StatusBar />
      {desktop !== null ? (
        <Suspense fallback={null}>
          <DesktopShell api={desktop} />
        </Suspense>
      ) : null}
      <ConfirmDialog />
      <ImportProblemsDialog />
    </div>
    </QueryClientProvider>
  );
}

function Page() {
  const route = useRoute((s) => s.route);
  const go = useRoute((s) => s.go);
  return (
    <Suspense fallback={<div className="loading">Loading…</div>}>
      {route.page === 'workflows' ? <WorkflowsPage /> : null}
      {route.page === 'workflow' ? <EditorPage key={route.id} id={route.id} /> : null}
      {route.page === 'file' ? <FileSourcePage key={route.file} file={route.file} /> : null}
      {route.page === 'runs' ? <RunsPage workflow={route.workflow} /> : null}
      {route.page === 'run' ? <RunPage key={route.id} id={route.id} /> : null}
      {route.page === 'tasks' ? <TasksPage /> : null}
      {route.page === 'policy' ? <PolicyPage /> : null}
      {route.page === 'compare' ? <ComparePage key={`${route.a}/${route.b}`} a={route.a} b={route.b} /> : null}
      {route.page === 'insights' ? <InsightsPage key={route.id} workflowId={route.id} onOpenRun={(id) => go({ page: 'run', id })} /> : null}
    </Suspense>
  );
}
