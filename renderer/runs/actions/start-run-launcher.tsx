// A "Start a run" button: for a given workflow, or with a menu of the workspace's workflows. It
// loads the workflow's definition, opens the start form (with its Debug section), and goes to
// the new run. A workflow file with errors cannot start: its button (or menu item) is disabled
// before any form is filled, with the reason on hover and, for screen readers, as its description
// (aria-disabled rather than disabled, so the button keeps its tooltip and its place in the Tab
// order).
import { Suspense, useId, useState } from 'react';
import { ChevronDown, Play } from 'lucide-react';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { WorkflowSummary } from '../../../shared/api/workflow-views.ts';
import { errorMessage } from '../../api/run-actions-client.ts';
import { useRoute } from '../../core/route-store.ts';
import { fetchWorkflowDetail, useWorkflowList } from '../../core/workflow-queries.ts';
import { StartRunDialog, preloadStartRunDialog, usePreloadStartRunDialog } from './lazy-start-run-dialog.ts';
import { useMenuHandlers } from '../../core/menu-handlers.ts';
import { notRunnableReason } from './not-runnable.ts';
import './actions.css';
import './debug.css';

export interface StartRunLauncherProps {
  /** Start this workflow; without one, the button opens a menu of the workspace's workflows. */
  workflowId?: string;
  /** Default: open the new run's page. */
  onStarted?(runId: string): void;
}

export function StartRunLauncher({ workflowId, onStarted }: StartRunLauncherProps) {
  const workflows = useWorkflowList().data;
  const [menu, setMenu] = useState(false);
  const [chosen, setChosen] = useState<Workflow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  usePreloadStartRunDialog();
  const listed = (workflows ?? []).filter((w): w is WorkflowSummary & { id: string } => w.id !== null);
  // For one workflow: why it cannot start, known from the workspace's list before any click.
  const blocked = workflowId === undefined ? null : notRunnableReason(listed.find((w) => w.id === workflowId));

  const choose = async (id: string) => {
    setMenu(false);
    setError(null);
    preloadStartRunDialog();
    try {
      const detail = await fetchWorkflowDetail(id);
      const reason = notRunnableReason(detail.summary);
      if (reason !== null) return setError(reason);
      if (detail.definition === null) return setError(`${id} is not a readable workflow: open it in the editor to see why.`);
      setChosen(detail.definition);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const started = (runId: string) => {
    setChosen(null);
    if (onStarted !== undefined) onStarted(runId);
    else useRoute.getState().go({ page: 'run', id: runId });
  };
  const open = (): string | void => {
    if (blocked !== null) return blocked;
    if (workflowId !== undefined) void choose(workflowId);
    else setMenu((m) => !m);
  };

  // The desktop Run menu's Start does what this button does (and says why it does not).
  useMenuHandlers({ 'run.start': () => (workflowId === undefined ? setMenu(true) : open()) });

  return (
    <div className="menu-anchor">
      <button
        type="button"
        className="button"
        onClick={() => void open()}
        aria-expanded={workflowId === undefined ? menu : undefined}
        aria-disabled={blocked !== null ? true : undefined}
        aria-describedby={blocked !== null ? reasonId : undefined}
        title={blocked ?? undefined}
        data-testid="action-start-run"
      >
        <Play size={13} aria-hidden="true" /> Start a run{workflowId === undefined ? <ChevronDown size={13} aria-hidden="true" /> : '…'}
      </button>
      {blocked !== null ? (
        <span id={reasonId} className="visually-hidden" data-testid="start-run-blocked">
          {blocked}
        </span>
      ) : null}
      {menu ? (
        <div className="menu start-run-menu" role="menu" data-testid="start-run-menu">
          {listed.length === 0 ? <div className="faint start-menu-empty">No workflow in the workspace.</div> : null}
          {listed.map((w) => {
            const reason = notRunnableReason(w);
            return (
              <button
                key={w.id}
                type="button"
                role="menuitem"
                onClick={() => reason === null && void choose(w.id)}
                aria-disabled={reason !== null ? true : undefined}
                aria-describedby={reason !== null ? `${reasonId}-${w.id}` : undefined}
                title={reason ?? undefined}
                data-testid={`start-workflow-${w.id}`}
              >
                <span className="grow">{w.name ?? w.id}</span>
                {reason !== null ? (
                  <span className="start-menu-blocked" id={`${reasonId}-${w.id}`}>
                    {w.errors === 1 ? '1 error' : `${w.errors} errors`}
                    <span className="visually-hidden">: {reason}</span>
                  </span>
                ) : null}
                <span className="faint mono">{w.id}</span>
              </button>
            );
          })}
        </div>
      ) : null}
      {error !== null ? (
        <div className="action-error" role="alert" data-testid="action-error">
          {error}
        </div>
      ) : null}
      {chosen !== null ? (
        <Suspense fallback={null}>
          <StartRunDialog workflowId={chosen.id} name={chosen.name} inputSchema={chosen.input} workflow={chosen} onStarted={started} onClose={() => setChosen(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}
