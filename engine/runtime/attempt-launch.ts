// Starting an executor attempt after the tick that recorded its start is committed: its abort
// signal, its timeout (after which the executor is given a grace period to stop), and the one
// result it ends with, whichever of the executor and the timeout comes first.
import type { AttemptResult } from '../executors/executor.ts';
import type { Clock } from '../time/clock.ts';
import { evaluate, renderTemplate, type RunContext } from './expressions.ts';
import type { Launch } from './live-run.ts';

/** How long an aborted executor may take to stop before its attempt is ended without it. */
export const ABORT_GRACE_MS = 10_000;

export interface LaunchDeps {
  clock: Clock;
  context(activation: number): RunContext;
  /** Called with the attempt's result; a second call for the same attempt is ignored by the caller. */
  complete(result: AttemptResult): void;
}

export function launchAttempt(l: Launch, deps: LaunchDeps): void {
  const controller = new AbortController();
  let cancelTimeout: (() => void) | undefined;
  let timedOut: AttemptResult | undefined;
  const key = l.stepId;
  const timeoutMs = l.step.timeoutMs;
  if (timeoutMs !== undefined) {
    cancelTimeout = deps.clock.setTimer(timeoutMs, () => {
      if (!l.live.running.has(key)) return;
      timedOut = l.step.effect === 'external'
        ? { outcome: 'unknown', reason: `no reply within ${timeoutMs} ms: the reply was lost or late, so whether the effect happened is unknown` }
        : { outcome: 'failed', code: 'timeout', message: `no result within ${timeoutMs} ms`, retryable: true };
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      // The executor stops its work and then settles; the attempt ends when it has, so a retry
      // never overlaps the attempt it replaces. An executor that does not settle is not waited on.
      const result = timedOut;
      const entry = l.live.running.get(key);
      if (entry) entry.cancelTimeout = deps.clock.setTimer(ABORT_GRACE_MS, () => deps.complete(result));
    });
  }
  l.live.running.set(key, { controller, cancelTimeout });
  let promise: Promise<AttemptResult>;
  try {
    promise = l.executor.execute({
      runId: l.live.model.runId,
      stepId: l.stepId,
      activation: l.activation,
      attempt: l.attempt,
      countedAttempt: l.countedAttempt,
      input: l.input,
      config: l.config,
      step: l.step,
      idempotencyKey: l.idempotencyKey,
      ...(l.partial === undefined ? {} : { partial: l.partial }),
      ...(l.candidate === undefined ? {} : { candidate: l.candidate }),
      signal: controller.signal,
      workspaceDir: l.live.model.workspaceDir,
      expressions: {
        render: (template) => renderTemplate(template, deps.context(l.activation)),
        evaluate: (expression) => evaluate(expression, deps.context(l.activation)),
      },
    });
  } catch (e) {
    promise = Promise.resolve({ outcome: 'failed', code: 'executor_error', message: errorMessage(e), retryable: false });
  }
  // After a timeout, an executor that settles within the grace period knows best what happened
  // (a reply that came late, or a request that was never sent); only its "aborted" of a step
  // without external effect becomes the engine's `timeout`.
  const afterTimeout = (result: AttemptResult): AttemptResult =>
    timedOut === undefined || result.outcome !== 'failed' || l.step.effect === 'external'
      ? result
      : result.code === 'aborted' ? timedOut : result;
  promise.then(
    (result) => deps.complete(afterTimeout(result)),
    (e: unknown) => deps.complete(timedOut ?? { outcome: 'failed', code: 'executor_error', message: errorMessage(e), retryable: false }),
  );
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
