// The run-level actions: pause, resume, cancel and revise. A button is enabled only when the
// run's permittedActions list it (the engine's own rules), its title is the engine's why; a
// disabled one says what holds it. Each opens its dialog: who, why, and for cancel a confirmation.
import { useMemo, useState } from 'react';
import { Ban, FilePenLine, Pause, Play } from 'lucide-react';
import { RUN_LEVEL_ACTIONS, type RunLevelActionName } from '../../../shared/api/permitted-action.ts';
import type { RunActionResult } from '../../../shared/api/run-action.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { RunActionsClient } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { ActionDialog } from './action-dialog.tsx';
import { ReviseDialog } from './revise-dialog.tsx';
import { notPermitted } from './run-facts.ts';
import { pauseWords } from './debug-words.ts';
import { useMenuHandlers } from '../../core/menu-handlers.ts';
import './actions.css';

export interface RunActionsProps {
  detail: RunDetail;
  /** Defaults to a client with the session's token. */
  client?: RunActionsClient;
  /** The engine accepted the action; the stream brings its events to the timeline. */
  onDone?(result: RunActionResult, action: RunLevelActionName): void;
}

const ICONS = { pause: Pause, resume: Play, cancel: Ban, revise: FilePenLine } as const;
const LABELS: Record<RunLevelActionName, string> = { pause: 'Pause', resume: 'Resume', cancel: 'Cancel run', revise: 'Revise input' };

export function RunActions({ detail, client, onDone }: RunActionsProps) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [open, setOpen] = useState<RunLevelActionName | null>(null);
  const run = detail.run;
  const done = (action: RunLevelActionName) => (result: RunActionResult) => onDone?.(result, action);
  // A debug run paused at a breakpoint: Resume does what Continue does there; it says so.
  const atBreakpoint = pauseWords(run.debug);
  // The desktop Run menu opens the same dialogs as the buttons, under the same engine rules.
  const fromMenu = (action: 'pause' | 'resume' | 'cancel') => (): string | void => {
    if (!run.permittedActions.some((p) => p.action === action)) return notPermitted(action, run.state, 'run');
    setOpen(action);
  };
  useMenuHandlers({ 'run.pause': fromMenu('pause'), 'run.resume': fromMenu('resume'), 'run.cancel': fromMenu('cancel') });
  return (
    <div className="action-bar" aria-label="run actions" data-testid="run-actions">
      {RUN_LEVEL_ACTIONS.map((action) => {
        const permitted = run.permittedActions.find((p) => p.action === action);
        const Icon = ICONS[action];
        return (
          <button
            key={action}
            type="button"
            className={`button${action === 'cancel' ? ' button-danger' : ''}`}
            disabled={permitted === undefined}
            title={action === 'resume' && atBreakpoint !== null && permitted !== undefined ? `Resume ${atBreakpoint.resume}` : (permitted?.why ?? notPermitted(action, run.state, 'run'))}
            onClick={() => setOpen(action)}
            data-testid={`action-${action}`}
          >
            <Icon size={13} aria-hidden="true" />
            {LABELS[action]}
          </button>
        );
      })}
      {open === 'revise' ? <ReviseDialog detail={detail} client={actions} onDone={done('revise')} onClose={() => setOpen(null)} /> : null}
      {open === 'pause' || open === 'resume' || open === 'cancel' ? (
        <ActionDialog
          name={open}
          title={open === 'pause' ? 'Pause the run' : open === 'resume' ? 'Resume the run' : 'Cancel the run'}
          subject={
            <>
              <span className="mono">{run.id}</span> · {run.workflowId} v{run.version} · {run.state.replace('_', ' ')}
            </>
          }
          submitLabel={LABELS[open]}
          danger={open === 'cancel'}
          reason="optional"
          confirm={open === 'cancel' ? 'Cancelling aborts the attempts running now (a request already sent to another system may still take effect), cancels every waiting step, and ends the run cancelled.' : null}
          onSubmit={async (who) => done(open)(await actions.runAction(run.id, { action: open, ...who }))}
          onClose={() => setOpen(null)}
        >
          <p className="muted action-explain">
            {open === 'pause'
              ? 'Nothing new starts until the run is resumed; attempts already running finish.'
              : open === 'resume'
                ? atBreakpoint !== null
                  ? `${atBreakpoint.where} Resume ${atBreakpoint.resume}`
                  : 'The run continues where it paused.'
                : 'Stops the run for good.'}
          </p>
        </ActionDialog>
      ) : null}
    </div>
  );
}
