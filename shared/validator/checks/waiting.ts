// Steps that wait on the world (people, events, timers) must have a bound, or a run can sit
// forever with nobody noticing.
import { waitsOnTheWorld } from '../../definition/step-kinds.ts';
import type { ValidationContext } from '../validation-context.ts';

export function checkWaiting(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    const bounded =
      step.deadlineMs !== undefined || (step.kind === 'wait' && step.config.durationMs !== undefined);
    if (bounded || !waitsOnTheWorld(step.kind)) continue;
    const what = step.kind === 'human' ? 'a person' : step.kind === 'event' ? `event "${step.config.name}"` : 'its time';
    ctx.atStep(v, [], {
      code: 'unbounded-wait',
      message: `${step.kind} step "${step.id}" waits for ${what} with no deadline, so a run can wait forever`,
      hint: step.kind === 'wait'
        ? 'give it "config": {"durationMs": ...}, or a "deadlineMs" after which it fires anyway'
        : 'add "deadlineMs" (for example 259200000 for 3 days) and an edge with "on": "expired"',
    });
  }
}
