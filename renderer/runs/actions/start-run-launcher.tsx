// A "Start a run" button: for a given workflow, or with a menu of the workspace's runnable
// workflows. It loads the workflow's input schema, opens the start form, and goes to the new run.
import { useState } from 'react';
import { ChevronDown, Play } from 'lucide-react';
import type { WorkflowSummary } from '../../../shared/api/workflow-views.ts';
import { errorMessage } from '../../api/run-actions-client.ts';
import { useRoute } from '../../core/route-store.ts';
import { fetchWorkflowDetail, useWorkflowList } from '../../core/workflow-queries.ts';
import { StartRunDialog } from './start-run-dialog.tsx';
import { useMenuHandlers } from '../../core/menu-handlers.ts';

interface Chosen {
  id: string;
  name: string;
  input: unknown;
}

export interface StartRunLauncherProps {
  /** Start this workflow; without one, the button opens a menu of the workspace's workflows. */
  workflowId?: string;
  /** Default: open the new run's page. */
  onStarted?(runId: string): void;
}

export function StartRunLauncher({ workflowId, onStarted }: StartRunLauncherProps) {
  const workflows = useWorkflowList().data;
  const [menu, setMenu] = useState(false);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [error, setError] = useState<string | null>(null);
  const runnable = (workflows ?? []).filter((w): w is WorkflowSummary & { id: string } => w.id !== null && w.errors === 0);

  const choose = async (id: string) => {
    setMenu(false);
    setError(null);
    try {
      const detail = await fetchWorkflowDetail(id);
      if (detail.definition === null) return setError(`${id} is not a readable workflow: open it in the editor to see why.`);
      setChosen({ id, name: detail.definition.name, input: detail.definition.input });
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const started = (runId: string) => {
    setChosen(null);
    if (onStarted !== undefined) onStarted(runId);
    else useRoute.getState().go({ page: 'run', id: runId });
  };

  // The desktop Run menu's Start does what this button does.
  useMenuHandlers({ 'run.start': () => (workflowId !== undefined ? void choose(workflowId) : setMenu(true)) });

  return (
    <div className="menu-anchor">
      <button type="button" className="button" onClick={() => (workflowId !== undefined ? void choose(workflowId) : setMenu((m) => !m))} aria-expanded={workflowId === undefined ? menu : undefined} data-testid="action-start-run">
        <Play size={13} aria-hidden="true" /> Start a run{workflowId === undefined ? <ChevronDown size={13} aria-hidden="true" /> : '…'}
      </button>
      {menu ? (
        <div className="menu" role="menu" data-testid="start-run-menu">
          {runnable.length === 0 ? <div className="faint start-menu-empty">No workflow without errors in the workspace.</div> : null}
          {runnable.map((w) => (
            <button key={w.id} type="button" role="menuitem" onClick={() => void choose(w.id)} data-testid={`start-workflow-${w.id}`}>
              <span className="grow">{w.name ?? w.id}</span>
              <span className="faint mono">{w.id}</span>
            </button>
          ))}
        </div>
      ) : null}
      {error !== null ? (
        <div className="action-error" role="alert" data-testid="action-error">
          {error}
        </div>
      ) : null}
      {chosen !== null ? <StartRunDialog workflowId={chosen.id} name={chosen.name} inputSchema={chosen.input} onStarted={started} onClose={() => setChosen(null)} /> : null}
    </div>
  );
}
