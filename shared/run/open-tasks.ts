// A run's open tasks for people, as `GET /api/tasks` and RunDetail list them.
import type { TaskSummary } from '../api/task-summary.ts';
import type { RunModel } from './run-model.ts';

/**
 * The tasks of the run's steps that wait for a person now, in the definition's step order.
 *
 * @example
 * openTasks(model).map((t) => t.stepId); // ['review']
 */
export function openTasks(run: RunModel): TaskSummary[] {
  const tasks: TaskSummary[] = [];
  for (const s of run.steps.values()) {
    if (s.state !== 'waiting' || s.task === null) continue;
    tasks.push({
      runId: run.runId,
      stepId: s.id,
      task: s.task.task,
      title: s.task.title,
      instructions: s.task.instructions ?? null,
      assignee: s.task.assignee ?? null,
      deadline: s.task.deadlineAt === undefined ? null : new Date(s.task.deadlineAt).toISOString(),
      escalated: s.escalated,
      form: s.task.form ?? null,
      options: s.task.options ?? null,
      ...(run.debug === null ? {} : { debug: true as const }),
      activation: s.activation,
      openedAtMs: s.task.openedAt,
      deadlineAtMs: s.task.deadlineAt ?? null,
    });
  }
  return tasks;
}
