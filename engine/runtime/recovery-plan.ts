// Recovery, as one pure plan: what a run loaded from its log needs for the scheduler to go on.
// Attempts a stopped engine left running end now (an external one as unknown, since its effect
// may have happened; others are run again), timers are re-armed, and work lists are rebuilt.
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import type { Completion } from './live-run.ts';
import { currentAttempt, type RunModel } from '../../shared/run/run-model.ts';
import { isTerminal } from '../../shared/run/run-status.ts';

export interface RecoveryPlan {
  /** How the attempts left running ended: recorded in the run's next tick. */
  interrupted: Completion[];
  ready: string[];
  /** Retry and wait timers, in the order they are due. */
  timers: { stepId: string; dueAt: number }[];
  /** Steps whose readiness is checked again. */
  dirty: string[];
  /**
   * Waiting steps whose handler catches up on what happened while no engine listened: a child
   * run that ended, an event stored by a send that stopped before delivering it.
   */
  resume: string[];
  /** Waiting steps whose decision is recorded while their revalidate check's read ran: it runs again (revalidation-fetch.ts). */
  rechecks: string[];
}

/**
 * @example planRecovery(run, index) // { interrupted: [{ stepId: 'pay', result: { outcome: 'unknown', ... } }], ... }
 */
export function planRecovery(run: RunModel, index: DefinitionIndex): RecoveryPlan {
  const plan: RecoveryPlan = { interrupted: [], ready: [], timers: [], dirty: [], resume: [], rechecks: [] };
  if (isTerminal(run.state)) return plan;
  for (const s of run.steps.values()) {
    if (s.state === 'running') {
      const a = currentAttempt(s);
      if (a && a.state === 'running') {
        plan.interrupted.push({
          stepId: s.id,
          activation: a.activation,
          attempt: a.number,
          result: a.effect === 'external'
            ? { outcome: 'unknown', reason: 'the engine stopped during this attempt; whether its effect happened is unknown' }
            : { outcome: 'failed', code: 'interrupted', message: 'the engine stopped during this attempt; it is run again', retryable: true },
        });
      }
    } else if (s.state === 'ready') plan.ready.push(s.id);
    else if (s.state === 'retry_wait' && s.retryDueAt !== null) plan.timers.push({ stepId: s.id, dueAt: s.retryDueAt });
    else if (s.state === 'waiting' && s.timerDueAt !== null) plan.timers.push({ stepId: s.id, dueAt: s.timerDueAt });
    else if (s.state === 'blocked' || s.state === 'skipped' || s.reopened !== null) plan.dirty.push(s.id);
    else if (s.state === 'failed' && index.steps.get(s.id)?.kind === 'join') plan.dirty.push(s.id); // a branch may have arrived after it failed
    if (s.state === 'waiting' && (s.children.size > 0 || s.awaiting !== null)) plan.resume.push(s.id);
    if (s.state === 'waiting' && currentAttempt(s)?.state === 'succeeded' && index.steps.get(s.id)?.revalidate?.fetch !== undefined) plan.rechecks.push(s.id);
  }
  plan.timers.sort((a, b) => a.dueAt - b.dueAt);
  return plan;
}
