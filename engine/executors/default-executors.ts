// The executors a real engine uses: one for each kind the step-kind registry routes to an executor
// (shared/definition/step-kinds.ts), or this does not compile. An engine given no executor for a
// kind (a test's) fails that kind's attempts with `unsupported_kind`.
//
// Each executor's module is imported when the first attempt of its kind starts, not when the
// engine opens: they bring in Node's http, https, tls, zlib and child_process and their own
// config schemas, which a `weft resume` of runs parked on timers, or a run that only calls an
// HTTP API, never uses (issue 20, step 9: CLI start).
import type { ExecutorKind } from '../../shared/definition/step-kinds.ts';
import type { Executor } from './executor.ts';

export function defaultExecutors(): { [K in ExecutorKind]: Executor } {
  return {
    agent: onFirstUse(async () => new (await import('./agent/agent-executor.ts')).AgentExecutor()),
    command: onFirstUse(async () => new (await import('./command-executor.ts')).CommandExecutor()),
    http: onFirstUse(async () => new (await import('./http/http-executor.ts')).HttpExecutor()),
    script: onFirstUse(async () => new (await import('./script-executor.ts')).ScriptExecutor()),
  };
}

/**
 * An executor made by `make` when its first attempt starts, then used for every attempt. Closing
 * it before then closes nothing; one made after a close is closed at once, as one made before
 * would have been (its attempts still run; what they leave is stopped when they finish).
 */
export function onFirstUse(make: () => Promise<Executor>): Executor {
  let making: Promise<Executor> | undefined;
  let made: Executor | undefined;
  let closed = false;
  return {
    async execute(ctx) {
      making ??= make().then((executor) => {
        made = executor;
        if (closed) executor.close?.();
        return executor;
      });
      return (made ?? (await making)).execute(ctx);
    },
    close() {
      closed = true;
      made?.close?.();
    },
  };
}
