// Attempt planning, as pure decisions: whether a ready step may start an attempt now (the store
// is being given back, or its resource pool is full), what the attempt is (number, effect, how
// it runs), where its input and idempotency key come from, and which config variant it uses.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { runsInline, runsOutside } from '../../shared/definition/step-kinds.ts';
import { countedAttempts } from './failure-policy.ts';
import { configForAttempt } from './retry-policy.ts';
import { currentAttempt, type StepRuntime } from '../../shared/run/run-model.ts';

/**
 * How an attempt runs: inside the tick (a pure step), through a handler (waits, people, events,
 * child runs), or by an executor started after the tick's commit. The kind's entry in the
 * step-kind registry (shared/definition/step-kinds.ts) says which; a kind left without its
 * handler or executor fails its attempts with `unsupported_kind`.
 */
export type AttemptRoute = 'inline' | 'handler' | 'executor';

export type AttemptPlan =
  /** The store is being given back: the step stays ready for the next engine. */
  | { kind: 'hold' }
  /** No slot in the step's resource pool: it waits for one (still ready or retry_wait). */
  | { kind: 'queue' }
  | { kind: 'start'; number: number; effect: 'none' | 'idempotent' | 'external'; route: AttemptRoute };

/**
 * Whether and how step `s` starts its next attempt. `slotFree` is undefined when the step's
 * resource is unlimited; `handled` tells whether a handler runs this kind.
 *
 * @example planAttempt(s, step, { draining: false, slotFree: true, handled: false }) // { kind: 'start', number: 1, effect: 'none', route: 'executor' }
 */
export function planAttempt(s: StepRuntime, step: Step, o: { draining: boolean; slotFree: boolean | undefined; handled: boolean }): AttemptPlan {
  const outside = runsOutside(step.kind);
  if (outside && o.draining) return { kind: 'hold' };
  if (outside && o.slotFree === false) return { kind: 'queue' };
  const route: AttemptRoute = runsInline(step.kind) ? 'inline' : o.handled ? 'handler' : 'executor';
  return { kind: 'start', number: (currentAttempt(s)?.number ?? 0) + 1, effect: step.effect ?? 'none', route };
}

/** Where the attempt's input comes from: an operator's retry input, the run's input, or the step's expression. */
export function inputSource(s: StepRuntime, step: Step): { kind: 'value'; value: unknown } | { kind: 'run_input' } | { kind: 'expression'; expression: string } {
  if (s.inputOverride !== null) return { kind: 'value', value: s.inputOverride.value };
  if (step.input === undefined) return { kind: 'run_input' };
  return { kind: 'expression', expression: step.input };
}

/** The attempt's idempotency key: evaluated for the first attempt, then the same for every attempt of the activation. */
export function keySource(s: StepRuntime, step: Step, attempt: number): { kind: 'value'; value: string | undefined } | { kind: 'expression'; expression: string } {
  if (attempt === 1 && step.idempotencyKey !== undefined) return { kind: 'expression', expression: step.idempotencyKey };
  return { kind: 'value', value: currentAttempt(s)?.idempotencyKey };
}

/**
 * The counted attempt number and config of the attempt about to start. A rerun after an engine
 * restart is not a retry: it gets the config its interrupted attempt had.
 */
export function attemptConfig(s: StepRuntime, step: Step): { counted: number; config: Record<string, unknown>; variant: number | null } {
  const counted = countedAttempts(s) + 1;
  const base: Record<string, unknown> = 'config' in step && step.config !== undefined ? step.config : {};
  return { counted, ...configForAttempt(base, step.retry, counted) };
}
