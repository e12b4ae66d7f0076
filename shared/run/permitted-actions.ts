// What an operator may do to a run and to each of its steps now, with the reason in words: every
// action that action-rules.ts (the engine's own refusals) does not refuse.
import { DEBUG_ACTIONS, RUN_LEVEL_ACTIONS, STEP_ACTIONS, type DebugActionName, type RunLevelActionName, type RunPermittedAction, type StepActionName, type StepPermittedAction } from '../api/permitted-action.ts';
import { debugActionRefusal, runActionRefusal, stepActionRefusal } from './action-rules.ts';
import { attemptId, currentAttempt, type RunModel, type StepRuntime } from './run-model.ts';

/**
 * The run-level actions the run permits now.
 *
 * @example
 * runPermittedActions(model); // [{ action: 'pause', why: 'the run is waiting; …' }, …]
 */
export function runPermittedActions(run: RunModel): RunPermittedAction[] {
  const actions: RunPermittedAction[] = RUN_LEVEL_ACTIONS.filter((a) => runActionRefusal(run, a) === undefined).map((action) => ({ action, why: runWhy(run, action) }));
  for (const action of DEBUG_ACTIONS) if (debugActionRefusal(run, action) === undefined) actions.push({ action, why: debugWhy(run, action) });
  return actions;
}

function debugWhy(run: RunModel, action: DebugActionName): string {
  const at = run.debug?.pausedAt;
  const where = at === null || at === undefined ? 'a breakpoint' : `the breakpoint at "${at.stepId}" (activation ${at.activation})`;
  return action === 'continue' ? `the run is paused at ${where}; continue starts it and goes on` : `the run is paused at ${where}; step starts it and pauses before the next step that starts`;
}

/** The actions step `s` permits now, in the order of STEP_ACTIONS. */
export function stepPermittedActions(run: RunModel, s: StepRuntime): StepPermittedAction[] {
  return STEP_ACTIONS.filter((a) => stepActionRefusal(run, s.id, a) === undefined).map((action) => ({ action, why: stepWhy(run, s, action) }));
}

function runWhy(run: RunModel, action: RunLevelActionName): string {
  switch (action) {
    case 'pause':
      return `the run is ${run.state}; while paused it starts nothing new`;
    case 'resume':
      return 'the run is paused; resuming starts its ready steps';
    case 'cancel':
      return `the run is ${run.state}; cancelling stops its steps and ends it`;
    case 'revise':
      return `no attempt is in progress; a new input starts revision ${run.inputRevision + 1}, reusing the evidence it still covers`;
  }
}

function stepWhy(run: RunModel, s: StepRuntime, action: StepActionName): string {
  const last = currentAttempt(s) ?? s.attempts[s.attempts.length - 1];
  const lastId = last === undefined ? undefined : attemptId(s.id, last);
  const failure = last?.error ? ` (${last.error.code}: ${last.error.message})` : '';
  const task = s.task;
  switch (action) {
    case 'retry':
      if (s.held !== null) return `${s.held.reason}; a retry repeats the effect with the new input`;
      if (s.state === 'unknown') return `attempt ${lastId ?? '(carried)'} outcome unknown; a retry repeats its effect`;
      return `it is ${s.state}${failure}; a retry starts activation ${s.activation + 1}`;
    case 'skip':
      return `it is ${s.state}; skip settles it as succeeded with an output you give`;
    case 'resolve':
      return `attempt ${lastId ?? '(carried)'} outcome unknown; resolve records whether its effect happened`;
    case 'keep':
      return `${s.held?.reason ?? 'a revision holds it'}; keep lets evidence ${s.held?.evidenceId ?? ''} stand without repeating the effect`;
    case 'fork':
      return `a new run of ${run.workflow.id} v${run.workflow.version} starts here, reusing the evidence of the steps before it`;
    case 'approve':
    case 'reject':
      return `the ${task?.task ?? 'approve'} task "${task?.title ?? s.id}" waits for ${task?.assignee ?? 'anyone'}`;
    case 'reassign':
      return `the task waits for ${task?.assignee ?? 'anyone'}; give it to someone else`;
  }
}
