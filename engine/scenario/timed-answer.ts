// An answer the outside world gives a call in virtual time: after `delayMs` on the clock, or never
// (a hang, until the step's timeout or a cancel aborts it). An abort ends the call as the engine
// expects of a real executor: `unknown` for an external effect (it may have happened), else a
// retryable failure. Scenario scripts (scripted-executor.ts) and replays' recordings
// (engine/evolution/replay-executor.ts) answer this way.
import type { AttemptContext, AttemptResult } from '../executors/executor.ts';
import type { Clock } from '../time/clock.ts';

/** `answer` after `delayMs` of the clock, or never when it is null; an abort settles it first. */
export function timedAnswer(ctx: AttemptContext, clock: Clock, delayMs: number, answer: (() => AttemptResult) | null): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const timer: { cancel?: () => void } = {};
    const aborted = (): void => {
      timer.cancel?.();
      resolve(ctx.step.effect === 'external'
        ? { outcome: 'unknown', reason: 'aborted while the effect may have happened' }
        : { outcome: 'failed', code: 'aborted', message: 'aborted', retryable: true });
    };
    if (ctx.signal.aborted) return aborted();
    ctx.signal.addEventListener('abort', aborted, { once: true });
    if (answer === null) return;
    timer.cancel = clock.setTimer(delayMs, () => {
      ctx.signal.removeEventListener('abort', aborted);
      resolve(answer());
    });
  });
}
