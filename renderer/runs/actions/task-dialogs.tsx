// A person's answers to a human task, as dialogs of the step: approve with the task's form (and a
// choice, for classify tasks), reject with a reason (it goes to the rework that follows), reassign
// to someone else. They go to POST /api/tasks/:runId/:stepId.
import { useState } from 'react';
import type { RunOutcome } from '../../../shared/api/run-outcome.ts';
import type { TaskSummary } from '../../../shared/api/task-summary.ts';
import type { RunActionsClient } from '../../api/run-actions-client.ts';
import { SchemaForm, type SchemaFormResult } from '../../forms/schema-form.tsx';
import { ActionDialog } from './action-dialog.tsx';

export interface TaskDialogProps {
  task: TaskSummary;
  client: RunActionsClient;
  onDone(result: RunOutcome): void;
  onClose(): void;
}

function Subject({ task }: { task: TaskSummary }) {
  return (
    <>
      {task.title} · <span className="mono">{task.stepId}</span> · run <span className="mono">{task.runId}</span>
    </>
  );
}

export function approveProblem(task: TaskSummary, answer: SchemaFormResult, choice: string): string | null {
  if (task.options !== null && choice === '') return 'Choose one of the options.';
  const first = answer.errors[0];
  return first === undefined ? null : `Fix the answer: ${first.path}: ${first.message}.`;
}

/** The task's instructions, its form and its options: the body of approve, here and inline. */
export function ApproveFields({ task, onAnswer, choice, onChoice, showAllErrors }: { task: TaskSummary; onAnswer(r: SchemaFormResult): void; choice: string; onChoice(c: string): void; showAllErrors: boolean }) {
  return (
    <>
      {task.options !== null ? (
        <section className="action-section">
          <h3>Choice</h3>
          <div className="action-choices" role="radiogroup" aria-label="choice">
            {task.options.map((o) => (
              <label key={o}>
                <input type="radio" name={`choice-${task.runId}-${task.stepId}`} checked={choice === o} onChange={() => onChoice(o)} data-testid={`choice-${o}`} /> {o}
              </label>
            ))}
          </div>
        </section>
      ) : null}
      {task.form !== null ? (
        <section className="action-section">
          <h3>Answer</h3>
          <SchemaForm schema={task.form} onChange={onAnswer} showAllErrors={showAllErrors} label="task answer" testId="task-form" />
        </section>
      ) : null}
    </>
  );
}

export function ApproveDialog({ task, client, onDone, onClose }: TaskDialogProps) {
  const [answer, setAnswer] = useState<SchemaFormResult>({ value: undefined, errors: [] });
  const [choice, setChoice] = useState('');
  return (
    <ActionDialog
      name="approve"
      title={task.task === 'classify' ? 'Classify' : 'Approve'}
      subject={<Subject task={task} />}
      submitLabel={task.task === 'classify' ? 'Answer' : 'Approve'}
      reason="none"
      blocked={approveProblem(task, answer, choice)}
      onSubmit={async ({ by }) => onDone(await client.taskAction(task.runId, task.stepId, { action: 'approve', by, ...(answer.value === undefined ? {} : { data: answer.value }), ...(choice === '' ? {} : { choice }) }))}
      onClose={onClose}
    >
      {task.instructions !== null ? <p className="action-explain">{task.instructions}</p> : null}
      <ApproveFields task={task} onAnswer={setAnswer} choice={choice} onChoice={setChoice} showAllErrors={false} />
    </ActionDialog>
  );
}

export function RejectDialog({ task, client, onDone, onClose }: TaskDialogProps) {
  return (
    <ActionDialog
      name="reject"
      title="Reject"
      subject={<Subject task={task} />}
      submitLabel="Reject"
      danger
      reason="required"
      onSubmit={async ({ by, reason }) => onDone(await client.taskAction(task.runId, task.stepId, { action: 'reject', by, reason: reason ?? '' }))}
      onClose={onClose}
    >
      <p className="faint action-explain">The reason is kept in the step’s output, for the rework that follows.</p>
    </ActionDialog>
  );
}

export function ReassignDialog({ task, client, onDone, onClose }: TaskDialogProps) {
  const [to, setTo] = useState('');
  return (
    <ActionDialog
      name="reassign"
      title="Reassign"
      subject={<Subject task={task} />}
      submitLabel="Reassign"
      reason="none"
      blocked={to.trim() === '' ? 'Say who takes the task.' : null}
      onSubmit={async ({ by }) => onDone(await client.taskAction(task.runId, task.stepId, { action: 'reassign', to: to.trim(), by }))}
      onClose={onClose}
    >
      <label className="form-row">
        <span>To</span>
        <input className="text-input" value={to} onChange={(e) => setTo(e.target.value)} placeholder={task.assignee ?? 'a person or a team'} data-testid="reassign-to" />
        <small className="faint">Now: {task.assignee ?? 'anyone'}</small>
      </label>
    </ActionDialog>
  );
}
