// The tasks inbox: open human tasks across runs, the nearest deadline first, each with a live
// countdown. A task opens in place: its instructions, what it is about (the step's input), and its
// form with Approve, Reject (with a reason) and Reassign. Answered tasks leave the list as it is
// read again (a task event of a watched run, or every few seconds: core/task-queries.ts); a line
// says what was answered and where the run went. An open card watches its run.
import { useEffect, useMemo, useState } from 'react';
import { ChevronDown, ChevronRight, Clock, ExternalLink } from 'lucide-react';
import type { RunOutcome } from '../../shared/api/run-outcome.ts';
import type { TaskActionName } from '../../shared/api/task-action.ts';
import type { TaskSummary } from '../api/api-types.ts';
import { useRoute } from '../core/route-store.ts';
import { formatDuration, formatWhen } from '../core/format.ts';
import { keys } from '../core/query-keys.ts';
import { messageOf, queryClient } from '../core/query-client.ts';
import { refetchRunDetail, useRunDetail } from '../core/run-queries.ts';
import { useTaskList } from '../core/task-queries.ts';
import { useWatchRuns } from '../core/watched-runs.ts';
import { RunActions } from '../runs/actions/run-actions.tsx';
import { StepActions } from '../runs/actions/step-actions.tsx';
import { StartRunLauncher } from '../runs/actions/start-run-launcher.tsx';
import { countdown } from './countdown.ts';
import { useSecond } from './second-clock.ts';
import { stateWords } from '../core/state-words.ts';
import { TaskAnswer } from './task-answer.tsx';
import '../forms/forms.css';
import '../runs/actions/actions.css';
import './tasks.css';

interface Answered {
  key: string;
  text: string;
  runId: string;
}

const PAST: Record<TaskActionName, string> = { approve: 'Approved', reject: 'Rejected', reassign: 'Reassigned' };

/** An operator's actions on the task's step; the answers themselves are the card's form. */
const OPERATOR_STEP_ACTIONS = ['retry', 'skip', 'resolve', 'keep', 'fork'] as const;

export const taskKey = (t: Pick<TaskSummary, 'runId' | 'stepId'>): string => `${t.runId}/${t.stepId}`;

/** Nearest deadline first; tasks without one after, oldest first. */
export function inboxOrder(a: TaskSummary, b: TaskSummary): number {
  if (a.deadlineAtMs !== b.deadlineAtMs) return (a.deadlineAtMs ?? Infinity) - (b.deadlineAtMs ?? Infinity);
  return a.openedAtMs - b.openedAtMs;
}

export function TaskInbox() {
  const list = useTaskList();
  const tasks = list.data ?? null;
  const error = list.error === null ? null : messageOf(list.error);
  const refresh = refreshTasks;
  // Open cards by key, with the task as it was when opened: a card someone is answering stays
  // when the task leaves the list (answered elsewhere, the run cancelled), marked as gone, so the
  // text typed is not lost and sending it shows the engine's answer.
  const [open, setOpen] = useState<ReadonlyMap<string, TaskSummary>>(() => new Map());
  const [answered, setAnswered] = useState<Answered[]>([]);
  useEffect(() => {
    document.title = 'Tasks · Weft Studio';
    void refresh();
  }, [refresh]);
  useWatchRuns(useMemo(() => [...new Set([...open.values()].map((t) => t.runId))], [open]));
  const toggle = (task: TaskSummary) =>
    setOpen((o) => {
      const next = new Map(o);
      if (!next.delete(taskKey(task))) next.set(taskKey(task), task);
      return next;
    });
  const close = (task: TaskSummary) =>
    setOpen((o) => {
      const next = new Map(o);
      next.delete(taskKey(task));
      return next;
    });
  const onAnswered = (task: TaskSummary) => (action: TaskActionName, outcome: RunOutcome) => {
    const text = `${PAST[action]} “${task.title}” (${task.stepId}): the run ${stateWords(outcome.state, 'run')}.`;
    setAnswered((a) => [{ key: `${taskKey(task)}@${Date.now()}`, text, runId: outcome.runId }, ...a].slice(0, 3));
    if (action !== 'reassign') close(task);
    void refresh();
  };
  const listed = new Set((tasks ?? []).map(taskKey));
  const gone = [...open.values()].filter((t) => !listed.has(taskKey(t)));
  const sorted = tasks === null ? null : [...tasks, ...gone].sort(inboxOrder);

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1 className="page-title">Tasks{tasks !== null && tasks.length > 0 ? <span className="faint task-count"> {tasks.length}</span> : null}</h1>
          <p className="page-sub">Steps waiting for a person, across every run; the nearest deadline first.</p>
        </div>
        <div className="page-actions">
          <StartRunLauncher />
        </div>
      </div>
      {answered.map((a) => (
        <div key={a.key} className="task-answered" role="status" data-testid="task-answered">
          {a.text} <RunLink runId={a.runId} />
        </div>
      ))}
      {error !== null ? <div className="error-box">Could not list the tasks: {error}</div> : null}
      {sorted === null && error === null ? <div className="loading">Loading tasks…</div> : null}
      {sorted !== null && sorted.length === 0 ? (
        <div className="empty" data-testid="task-empty">
          <h2>Nothing waiting for a person</h2>
          <p>Human steps of running workflows appear here with their deadlines.</p>
        </div>
      ) : null}
      {sorted !== null && sorted.length > 0 ? (
        <ul className="task-list" data-testid="task-list">
          {sorted.map((t) => (
            <TaskCard key={taskKey(t)} task={t} open={open.has(taskKey(t))} gone={!listed.has(taskKey(t))} onToggle={() => toggle(t)} onAnswered={onAnswered(t)} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function TaskCard({ task, open, gone, onToggle, onAnswered }: { task: TaskSummary; open: boolean; gone: boolean; onToggle(): void; onAnswered(action: TaskActionName, outcome: RunOutcome): void }) {
  const Chevron = open ? ChevronDown : ChevronRight;
  return (
    <li className="task-card" data-open={open} data-gone={gone} data-testid={`task-${task.runId}-${task.stepId}`}>
      <div className="task-head">
        <button type="button" className="task-toggle" aria-expanded={open} onClick={onToggle} data-testid="task-toggle">
          <Chevron size={15} aria-hidden="true" />
          <span className="task-title">{task.title}</span>
        </button>
        <span className="task-kind">{task.task}</span>
        <span className="faint task-meta">
          <span className="mono">{task.stepId}</span> · {task.assignee ?? 'anyone'}
        </span>
        <span className="grow" />
        {task.escalated ? <span className="task-escalated">escalated</span> : null}
        {task.debug === true ? (
          <span className="debug-badge" title="a task of a debug run: its outputs may not be real" data-testid={`task-debug-${task.runId}`}>
            debug
          </span>
        ) : null}
        {gone ? (
          <span className="task-gone" data-testid="task-gone">
            no longer open
          </span>
        ) : (
          <Deadline task={task} />
        )}
        <RunLink runId={task.runId} />
      </div>
      {open && gone ? (
        <p className="task-gone-note">This task is no longer open: it was answered, or its run moved on, elsewhere. Close it, or send your answer to see what the engine says.</p>
      ) : null}
      {open ? <TaskBody task={task} onAnswered={onAnswered} /> : null}
    </li>
  );
}

function TaskBody({ task, onAnswered }: { task: TaskSummary; onAnswered(action: TaskActionName, outcome: RunOutcome): void }) {
  const detail = useRunDetail(task.runId).data;
  const loadRun = refetchRunDetail;
  const go = useRoute((s) => s.go);
  const input = detail?.steps.find((s) => s.id === task.stepId)?.attempts.at(-1)?.input;
  return (
    <div className="task-body">
      {task.instructions !== null ? <p className="task-instructions">{task.instructions}</p> : null}
      {input !== undefined && input !== null ? (
        <details className="task-input" open>
          <summary>What it is about (the step’s input)</summary>
          <pre className="mono" data-testid="task-input">
            {JSON.stringify(input, null, 2)}
          </pre>
        </details>
      ) : null}
      <TaskAnswer task={task} onAnswered={onAnswered} />
      {detail !== undefined ? (
        <details className="task-run">
          <summary>
            The run: {detail.run.workflowId} v{detail.run.version}, {detail.run.state.replace('_', ' ')}
          </summary>
          <RunActions detail={detail} onDone={() => void loadRun(task.runId)} />
          <StepActions detail={detail} stepId={task.stepId} only={OPERATOR_STEP_ACTIONS} onDone={(result, action) => (action === 'fork' ? go({ page: 'run', id: result.runId }) : void loadRun(task.runId))} />
        </details>
      ) : null}
    </div>
  );
}

function refreshTasks(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: keys.tasks() });
}

/** Ticks alone, once a second: the rest of the card does not re-render. */
function Deadline({ task }: { task: TaskSummary }) {
  if (task.deadlineAtMs === null) return <span className="faint task-deadline">no deadline</span>;
  return <LiveDeadline deadlineAtMs={task.deadlineAtMs} openedAtMs={task.openedAtMs} />;
}

function LiveDeadline({ deadlineAtMs, openedAtMs }: { deadlineAtMs: number; openedAtMs: number }) {
  const now = useSecond();
  const c = countdown(deadlineAtMs, now);
  return (
    <span className="task-deadline" data-urgency={c.urgency} title={`due ${formatWhen(deadlineAtMs, now).local}, ${formatDuration(deadlineAtMs - openedAtMs)} after it opened (${new Date(deadlineAtMs).toISOString()})`} data-testid="task-deadline">
      <Clock size={12} aria-hidden="true" /> {c.text}
    </span>
  );
}

function RunLink({ runId }: { runId: string }) {
  const go = useRoute((s) => s.go);
  return (
    <button type="button" className="link-button mono task-run-link" onClick={() => go({ page: 'run', id: runId })} title="open the run" data-testid="task-run-link">
      {runId} <ExternalLink size={11} aria-hidden="true" />
    </button>
  );
}
