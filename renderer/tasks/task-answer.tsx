// A task answered where it is listed: the form (and the options of a classify task) with Approve,
// or a reason and Reject, or a name and Reassign. Who answers is the server's user unless the
// person types another name, which is remembered in this browser (runs/actions/who.ts). The
// engine's refusal (the task was answered elsewhere, the run was cancelled) is shown as it says it.
import { useMemo, useState } from 'react';
import { Check, UserRoundPen, X } from 'lucide-react';
import type { RunOutcome } from '../../shared/api/run-outcome.ts';
import type { TaskSummary } from '../../shared/api/task-summary.ts';
import type { TaskActionName } from '../../shared/api/task-action.ts';
import { errorMessage, type RunActionsClient } from '../api/run-actions-client.ts';
import { requireClients } from '../api/clients.ts';
import type { SchemaFormResult } from '../forms/schema-form.tsx';
import { ApproveFields, approveProblem } from '../runs/actions/task-dialogs.tsx';
import { useActor } from '../runs/actions/who.ts';

export interface TaskAnswerProps {
  task: TaskSummary;
  client?: RunActionsClient;
  onAnswered(action: TaskActionName, outcome: RunOutcome): void;
}

type Mode = 'approve' | 'reject' | 'reassign';

export function TaskAnswer({ task, client, onAnswered }: TaskAnswerProps) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [mode, setMode] = useState<Mode>('approve');
  const [answer, setAnswer] = useState<SchemaFormResult>({ value: undefined, errors: [] });
  const [choice, setChoice] = useState('');
  const [by, setBy] = useActor();
  const [reason, setReason] = useState('');
  const [to, setTo] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const problem =
    by.trim() === ''
      ? 'Say who answers.'
      : mode === 'approve'
        ? approveProblem(task, answer, choice)
        : mode === 'reject'
          ? reason.trim() === ''
            ? 'Give a reason: it goes to the rework that follows.'
            : null
          : to.trim() === ''
            ? 'Say who takes the task.'
            : null;

  const send = async () => {
    setTried(true);
    if (problem !== null) return;
    setBusy(true);
    setError(null);
    try {
      const who = by.trim();
      const outcome =
        mode === 'approve'
          ? await actions.taskAction(task.runId, task.stepId, { action: 'approve', by: who, ...(answer.value === undefined ? {} : { data: answer.value }), ...(choice === '' ? {} : { choice }) })
          : mode === 'reject'
            ? await actions.taskAction(task.runId, task.stepId, { action: 'reject', by: who, reason: reason.trim() })
            : await actions.taskAction(task.runId, task.stepId, { action: 'reassign', by: who, to: to.trim() });
      onAnswered(mode, outcome);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const switchTo = (m: Mode) => {
    setMode(m);
    setTried(false);
    setError(null);
  };

  return (
    <form
      className="task-answer"
      data-testid="task-answer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {mode === 'approve' ? (
        <ApproveFields task={task} onAnswer={setAnswer} choice={choice} onChoice={setChoice} showAllErrors={tried} />
      ) : mode === 'reject' ? (
        <label className="form-row">
          <span>
            Reason<abbr className="required-mark" title="required">*</abbr>
          </span>
          <textarea className="text-input action-textarea" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="What to change: it goes to the rework that follows" aria-invalid={tried && reason.trim() === ''} data-testid="action-reason" autoFocus />
        </label>
      ) : (
        <label className="form-row">
          <span>Reassign to</span>
          <input className="text-input" value={to} onChange={(e) => setTo(e.target.value)} placeholder={task.assignee ?? 'a person or a team'} data-testid="reassign-to" autoFocus />
        </label>
      )}
      <div className="task-answer-foot">
        <label className="task-by">
          <span className="faint">by</span>
          <input className="text-input" value={by} onChange={(e) => setBy(e.target.value)} aria-label="answered by" data-testid="action-by" />
        </label>
        <div className="grow" />
        {mode === 'approve' ? (
          <>
            <button type="button" className="button" onClick={() => switchTo('reassign')} data-testid="action-reassign">
              <UserRoundPen size={13} aria-hidden="true" /> Reassign…
            </button>
            <button type="button" className="button button-danger" onClick={() => switchTo('reject')} data-testid="action-reject">
              <X size={13} aria-hidden="true" /> Reject…
            </button>
            <button type="submit" className="button button-primary" disabled={busy} data-testid="action-approve">
              <Check size={13} aria-hidden="true" /> {task.task === 'classify' ? 'Answer' : 'Approve'}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button" onClick={() => switchTo('approve')}>
              Back
            </button>
            <button type="submit" className={`button button-primary${mode === 'reject' ? ' button-danger-solid' : ''}`} disabled={busy} data-testid="submit-action">
              {busy ? 'Sending…' : mode === 'reject' ? 'Reject' : 'Reassign'}
            </button>
          </>
        )}
      </div>
      {tried && problem !== null ? (
        <div className="form-error" role="alert" data-testid="action-problem">
          {problem}
        </div>
      ) : null}
      {error !== null ? (
        <div className="action-error" role="alert" data-testid="action-error">
          {error}
        </div>
      ) : null}
    </form>
  );
}
