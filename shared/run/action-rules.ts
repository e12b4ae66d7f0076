// When an operator action is refused, and why: the one set of rules that the engine applies
// before it writes anything (it throws the refusal) and that a run's read model lists as the
// permitted actions (permitted-actions.ts). A button the app shows is one the engine accepts.
// Only state is judged here; what an action carries (an output against the step's schema, a
// task's answer against its form) is checked by the engine when the action arrives.
import type { RunState, StepState } from '../definition/names.ts';
import type { DebugActionName, RunLevelActionName, StepActionName } from '../api/permitted-action.ts';
import { indexDefinition } from './definition-index.ts';
import { joinRefusal } from './join-readiness.ts';
import { currentAttempt, type RunModel, type StepRuntime } from './run-model.ts';
import { forbiddenMessage, forbiddingRule, runForbiddingRule } from '../policy/forbidden-actions.ts';

/** Why an action may not happen now: `bad-input` names something the run does not have. */
export interface Refusal {
  code: 'refused' | 'bad-input';
  message: string;
}

/** The actions whose run must be in one of these states. */
type RunGated = 'pause' | 'resume' | 'cancel' | 'retry' | 'skip' | 'resolve' | 'keep';

/** The run states each action works on. */
export const RUN_STATES_FOR: Readonly<Record<RunGated, readonly RunState[]>> = {
  pause: ['running', 'waiting', 'needs_attention'],
  resume: ['paused'],
  cancel: ['running', 'waiting', 'needs_attention', 'paused'],
  retry: ['running', 'waiting', 'needs_attention', 'failed', 'paused'],
  skip: ['running', 'waiting', 'needs_attention', 'failed', 'paused'],
  resolve: ['running', 'waiting', 'needs_attention', 'failed', 'paused'],
  keep: ['running', 'waiting', 'needs_attention', 'paused'],
};

/** The step states retry, skip, resolve and keep work on (a retry also on a step a revision holds). */
const STEP_STATES_FOR: Readonly<Record<'retry' | 'skip' | 'resolve' | 'keep', readonly StepState[]>> = {
  retry: ['failed', 'unknown', 'rejected', 'cancelled'],
  skip: ['blocked', 'ready', 'retry_wait', 'waiting', 'failed', 'unknown', 'rejected', 'cancelled', 'skipped'],
  resolve: ['unknown'],
  keep: ['waiting'],
};

/** Join states an operator's retry or skip could settle (others are refused by the state check). */
const SETTLEABLE_JOIN: ReadonlySet<StepState> = new Set(['blocked', 'failed', 'cancelled', 'skipped', 'unknown', 'rejected']);

const refused = (message: string): Refusal => ({ code: 'refused', message });

/**
 * Why the run refuses `action` now, or undefined when it permits it.
 *
 * @example
 * runActionRefusal(model, 'resume'); // { code: 'refused', message: 'cannot resume run r1: it is running (…)' }
 */
export function runActionRefusal(run: RunModel, action: RunLevelActionName | RunGated): Refusal | undefined {
  if (run.replayOf !== undefined) return replayRefusal(run, action);
  if (action === 'revise') {
    const busy = [...run.steps.values()].filter((s) => s.state === 'running');
    if (busy.length > 0) return refused(`run ${run.runId} has attempts in progress (${busy.map((s) => s.id).join(', ')}); revise it when they have finished`);
    return runPolicyRefusal(run, action);
  }
  const states = RUN_STATES_FOR[action];
  if (states.includes(run.state)) return action === 'cancel' ? runPolicyRefusal(run, action) : undefined;
  return refused(`cannot ${action} run ${run.runId}: it is ${run.state} (${action} works on ${states.join(', ')} runs); nothing was changed`);
}

/**
 * Why `continue` or `step` is refused now: they work only on a debug run paused at a breakpoint
 * (a run paused by `weft pause` is resumed with `weft resume`).
 *
 * @example
 * debugActionRefusal(model, 'step'); // { code: 'refused', message: 'cannot step run r1: it is not a debug run …' }
 */
export function debugActionRefusal(run: RunModel, action: DebugActionName): Refusal | undefined {
  if (run.replayOf !== undefined) return replayRefusal(run, action);
  if (run.debug === null) return refused(`cannot ${action} run ${run.runId}: it is not a debug run (start one with weft run FILE --break STEP); nothing was changed`);
  if (run.state !== 'paused' || run.debug.pausedAt === null) {
    return refused(`cannot ${action} run ${run.runId}: it is ${run.state}, not paused at a breakpoint (${action} works on a debug run paused at a breakpoint${run.state === 'paused' ? '; weft resume continues a paused run' : ''}); nothing was changed`);
  }
  return undefined;
}

/**
 * Why `action` on step `stepId` is refused now, or undefined when it is permitted. The checks run
 * in the order the engine has always made them, so the first reason given is the same.
 */
export function stepActionRefusal(run: RunModel, stepId: string, action: StepActionName): Refusal | undefined {
  if (run.replayOf !== undefined) return replayRefusal(run, action);
  const refusal = stateRefusal(run, stepId, action);
  if (refusal !== undefined || action === 'approve' || action === 'reject' || action === 'reassign') return refusal;
  const step = indexDefinition(run.workflow).steps.get(stepId);
  const rule = step === undefined ? undefined : forbiddingRule(run.policy?.rules, action, step, run.workflow.id);
  return rule === undefined ? undefined : refused(forbiddenMessage(rule, action === 'fork' ? `forking from step "${stepId}"` : `${action} of step "${stepId}"`));
}

/** A run action the run's policy forbids (cancel, revise). */
function runPolicyRefusal(run: RunModel, action: 'cancel' | 'revise'): Refusal | undefined {
  const rule = runForbiddingRule(run.policy?.rules, action, run.workflow);
  return rule === undefined ? undefined : refused(forbiddenMessage(rule, `${action === 'cancel' ? 'cancelling' : 'revising'} runs of ${run.workflow.id}`));
}

/** Why the run's and the step's states refuse `action` on step `stepId`, before any policy. */
function stateRefusal(run: RunModel, stepId: string, action: StepActionName): Refusal | undefined {
  switch (action) {
    case 'retry':
    case 'skip':
      return runActionRefusal(run, action) ?? joinWithoutBranches(run, stepId, action) ?? stepStateRefusal(run, stepId, action);
    case 'resolve':
      return runActionRefusal(run, action) ?? stepStateRefusal(run, stepId, action);
    case 'keep': {
      const r = runActionRefusal(run, action) ?? stepStateRefusal(run, stepId, action);
      if (r !== undefined) return r;
      const held = run.steps.get(stepId)?.held ?? null;
      if (held === null || !run.evidence.has(held.evidenceId)) {
        return refused(`cannot keep step "${stepId}": it is waiting, but not for a decision after a revision (keep works on steps a revision holds); nothing was changed`);
      }
      const offsetBy = run.evidence.get(held.evidenceId)?.offsetBy;
      if (offsetBy !== undefined) {
        return refused(`cannot keep step "${stepId}": the effect of its evidence ${held.evidenceId} was undone by "${offsetBy}", so it cannot stand; weft retry runs the step again, weft skip settles it with a given output; nothing was changed`);
      }
      return undefined;
    }
    case 'approve':
    case 'reject':
    case 'reassign':
      return taskRefusal(run, stepId, action);
    case 'fork':
      return noSuchStep(run, stepId);
  }
}

/** The step's open task, or why there is none (approve, reject and reassign need one). */
function taskRefusal(run: RunModel, stepId: string, action: 'approve' | 'reject' | 'reassign'): Refusal | undefined {
  const missing = noSuchStep(run, stepId);
  if (missing !== undefined) return missing;
  const s = run.steps.get(stepId);
  if (s === undefined || s.state !== 'waiting' || s.task === null || currentAttempt(s) === undefined) {
    return refused(`step "${stepId}" of run ${run.runId} is ${s?.state ?? 'missing'}, not waiting for a person; nothing was changed`);
  }
  const kind = indexDefinition(run.workflow).steps.get(stepId)?.kind;
  if (action !== 'reassign' && kind !== 'human') return refused(`step "${stepId}" is a ${kind ?? 'missing'} step, not a task for a person`);
  return undefined;
}

/**
 * Why a note on the run (or on `stepId`) is refused: only on a replay, or for a step the run does
 * not have. A note changes nothing but the record, so every run state takes one, settled included.
 *
 * @example
 * noteRefusal(model, 'nope'); // { code: 'bad-input', message: 'run r1 has no step "nope"; its steps are …' }
 */
export function noteRefusal(run: RunModel, stepId: string | undefined): Refusal | undefined {
  if (run.replayOf !== undefined) return replayRefusal(run, 'note on');
  return stepId === undefined ? undefined : noSuchStep(run, stepId);
}

function noSuchStep(run: RunModel, stepId: string): Refusal | undefined {
  if (run.steps.has(stepId)) return undefined;
  return { code: 'bad-input', message: `run ${run.runId} has no step "${stepId}"; its steps are ${[...indexDefinition(run.workflow).steps.keys()].join(', ')}` };
}

/** The step states an action works on for this step now: a retry also works on a step a revision holds. */
function statesFor(s: StepRuntime | undefined, action: 'retry' | 'skip' | 'resolve' | 'keep'): readonly StepState[] {
  // A step a revision holds (waiting for a decision) may be retried: the operator's decision to repeat the effect.
  if (action === 'retry' && (s?.held ?? null) !== null) return [...STEP_STATES_FOR.retry, 'waiting'];
  return STEP_STATES_FOR[action];
}

function stepStateRefusal(run: RunModel, stepId: string, action: 'retry' | 'skip' | 'resolve' | 'keep'): Refusal | undefined {
  const missing = noSuchStep(run, stepId);
  if (missing !== undefined) return missing;
  const s = run.steps.get(stepId);
  const states = statesFor(s, action);
  if (s === undefined || states.includes(s.state)) return undefined;
  return refused(`cannot ${action} step "${stepId}": it is ${s.state} (${action} works on ${states.join(', ')} steps); nothing was changed`);
}

/**
 * A join never goes on without the branches it needs, whoever asks: a retry or skip of a join is
 * refused, with the reason, while one is missing. The operator acts on the branch instead, and the
 * join goes on by itself when the branch arrives.
 */
function joinWithoutBranches(run: RunModel, stepId: string, action: 'retry' | 'skip'): Refusal | undefined {
  const index = indexDefinition(run.workflow);
  const step = index.steps.get(stepId);
  const s = run.steps.get(stepId);
  if (step?.kind !== 'join' || s === undefined || !SETTLEABLE_JOIN.has(s.state)) return undefined;
  const why = joinRefusal(run, index, step, s);
  if (why === undefined) return undefined;
  return refused(`cannot ${action} join "${stepId}": ${why}; retry, resolve or skip the missing branch instead, and the join goes on when it arrives; nothing was changed`);
}

/** A replay is a record of what another definition would have done: it takes no action (docs/evolution.md). */
function replayRefusal(run: RunModel, action: string): Refusal {
  return refused(`cannot ${action} run ${run.runId}: it is a replay of run ${run.replayOf?.runId ?? '?'} (a record of what another definition would do, in virtual time); act on the run itself; nothing was changed`);
}
