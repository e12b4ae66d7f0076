// Scenario tests replace the work of a step with scripted outcomes, attempt by attempt: succeed
// with an output, fail with a code, end unknown, hang past the timeout, or take some virtual
// time first. Everything else (routing, retries, timeouts, evidence) is the real engine.
import type { AttemptContext, AttemptResult, Executor } from '../executors/executor.ts';
import type { Clock } from '../runtime/clock.ts';

export type ScriptedOutcome =
  | { succeed: unknown; takeMs?: number }
  | { fail: string; message?: string; retryable?: boolean; takeMs?: number }
  | { unknown: string; takeMs?: number }
  | { hang: true };

export class ScriptedExecutor implements Executor {
  /** Attempts seen per step, for coverage and assertions. */
  readonly calls = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly script: ReadonlyMap<string, readonly ScriptedOutcome[]>,
  ) {}

  execute(ctx: AttemptContext): Promise<AttemptResult> {
    const n = (this.calls.get(ctx.stepId) ?? 0) + 1;
    this.calls.set(ctx.stepId, n);
    const plan = this.script.get(ctx.stepId) ?? [];
    const outcome = plan[Math.min(n, plan.length) - 1] ?? { succeed: null };
    return new Promise((resolve) => {
      const timer: { cancel?: () => void } = {};
      const aborted = (): void => {
        timer.cancel?.();
        resolve(ctx.step.effect === 'external'
          ? { outcome: 'unknown', reason: 'aborted while the effect may have happened' }
          : { outcome: 'failed', code: 'aborted', message: 'aborted', retryable: true });
      };
      ctx.signal.addEventListener('abort', aborted, { once: true });
      if ('hang' in outcome) return;
      const finish = (): void => {
        ctx.signal.removeEventListener('abort', aborted);
        if ('succeed' in outcome) resolve({ outcome: 'succeeded', output: outcome.succeed });
        else if ('fail' in outcome) resolve({ outcome: 'failed', code: outcome.fail, message: outcome.message ?? `scripted failure ${outcome.fail}`, retryable: outcome.retryable ?? true });
        else resolve({ outcome: 'unknown', reason: outcome.unknown });
      };
      timer.cancel = this.clock.setTimer(outcome.takeMs ?? 0, finish);
    });
  }
}
