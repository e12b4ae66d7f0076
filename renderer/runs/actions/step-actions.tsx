// The actions on one step of a run: retry, skip, resolve, keep, fork, and a human task's approve,
// reject and reassign. Enabled only when the step's permittedActions list them (the engine's own
// rules); the title of an enabled one is the engine's why, a disabled one says what holds it.
import { useMemo, useState } from 'react';
import { Check, GitFork, RotateCcw, ShieldCheck, SkipForward, UserRoundPen, X, Archive } from 'lucide-react';
import { STEP_ACTIONS, type StepActionName } from '../../../shared/api/permitted-action.ts';
import type { RunActionResult } from '../../../shared/api/run-action.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { RunActionsClient } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { notPermitted, stepDefinition, stepDetail } from './run-facts.ts';
import { ForkDialog, KeepDialog, ResolveDialog, RetryDialog, SkipDialog } from './step-dialogs.tsx';
import { ApproveDialog, ReassignDialog, RejectDialog } from './task-dialogs.tsx';
import './actions.css';

export interface StepActionsProps {
  detail: RunDetail;
  stepId: string;
  /** Defaults to a client with the session's token. */
  client?: RunActionsClient;
  /** The engine accepted the action (for `fork`, `result.runId` is the new run). */
  onDone?(result: RunActionResult, action: StepActionName): void;
  /** Only these buttons (default: all eight). */
  only?: readonly StepActionName[];
}

const ICONS = { retry: RotateCcw, skip: SkipForward, resolve: ShieldCheck, keep: Archive, fork: GitFork, approve: Check, reject: X, reassign: UserRoundPen } as const;
const LABELS: Record<StepActionName, string> = { retry: 'Retry', skip: 'Skip', resolve: 'Resolve', keep: 'Keep', fork: 'Fork from here', approve: 'Approve', reject: 'Reject', reassign: 'Reassign' };
const TASK_ACTIONS: readonly StepActionName[] = ['approve', 'reject', 'reassign'];

export function StepActions({ detail, stepId, client, onDone, only = STEP_ACTIONS }: StepActionsProps) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [open, setOpen] = useState<StepActionName | null>(null);
  const step = stepDetail(detail, stepId);
  const task = detail.tasks.find((t) => t.stepId === stepId);
  if (step === undefined) return null;
  // Task buttons only for a human step: elsewhere they are noise.
  const shown = only.filter((a) => !TASK_ACTIONS.includes(a) || task !== undefined || stepDefinition(detail, stepId)?.kind === 'human');
  const props = { detail, stepId, client: actions, onClose: () => setOpen(null) };
  const done = (action: StepActionName) => (result: RunActionResult) => onDone?.(result, action);
  return (
    <div className="action-bar" aria-label={`actions on ${stepId}`} data-testid={`step-actions-${stepId}`}>
      {shown.map((action) => {
        const permitted = step.permittedActions.find((p) => p.action === action);
        const Icon = ICONS[action];
        return (
          <button
            key={action}
            type="button"
            className="button"
            disabled={permitted === undefined || (TASK_ACTIONS.includes(action) && task === undefined)}
            title={permitted?.why ?? notPermitted(action, step.state, 'step')}
            onClick={() => setOpen(action)}
            data-testid={`action-${action}`}
          >
            <Icon size={13} aria-hidden="true" />
            {LABELS[action]}
          </button>
        );
      })}
      {open === 'retry' ? <RetryDialog {...props} onDone={done('retry')} /> : null}
      {open === 'skip' ? <SkipDialog {...props} onDone={done('skip')} /> : null}
      {open === 'resolve' ? <ResolveDialog {...props} onDone={done('resolve')} /> : null}
      {open === 'keep' ? <KeepDialog {...props} onDone={done('keep')} /> : null}
      {open === 'fork' ? <ForkDialog {...props} onDone={done('fork')} /> : null}
      {task !== undefined && open === 'approve' ? <ApproveDialog task={task} client={actions} onDone={done('approve')} onClose={props.onClose} /> : null}
      {task !== undefined && open === 'reject' ? <RejectDialog task={task} client={actions} onDone={done('reject')} onClose={props.onClose} /> : null}
      {task !== undefined && open === 'reassign' ? <ReassignDialog task={task} client={actions} onDone={done('reassign')} onClose={props.onClose} /> : null}
    </div>
  );
}
