// Retries, failures and compensation around steps with external effects.
import type { EdgeOutcome } from '../../definition/names.ts';
import { canFail } from '../../definition/step-kinds.ts';
import type { ValidationContext } from '../validation-context.ts';

const FAILURE_OUTCOMES: readonly EdgeOutcome[] = ['failed', 'rejected', 'expired', 'timed_out', 'any'];

export function checkEffects(ctx: ValidationContext): void {
  const { graph } = ctx;
  const n = graph.size;
  // Nearest upstream external step without compensation, per step (first pass of the DAG).
  const exposedBy = new Int32Array(n).fill(-1);
  for (const v of graph.topo) {
    for (const e of graph.in[v] ?? []) {
      if (!e.forward) continue;
      const p = graph.step(e.from);
      const cause = p.effect === 'external' && p.compensation === undefined ? e.from : (exposedBy[e.from] ?? -1);
      if (cause >= 0 && exposedBy[v] === -1) exposedBy[v] = cause;
    }
  }
  // Some step downstream can fail, per step (reverse order).
  const failsDownstream = new Uint8Array(n);
  for (let k = graph.topo.length - 1; k >= 0; k--) {
    const v = graph.topo[k] as number;
    for (const e of graph.out[v] ?? []) {
      if (e.forward && (canFail(graph.step(e.to)) || failsDownstream[e.to] === 1)) failsDownstream[v] = 1;
    }
  }
  for (let v = 0; v < n; v++) {
    const step = graph.step(v);
    const outs = graph.out[v] ?? [];
    const escalates = step.onExhausted === 'escalate';
    const external = step.effect === 'external';
    if (external && (step.retry?.maxAttempts ?? 1) > 1 && step.idempotencyKey === undefined) {
      ctx.atStep(v, ['retry', 'maxAttempts'], {
        code: 'unsafe-retry',
        message: `external step "${step.id}" is retried up to ${step.retry?.maxAttempts} times without an idempotencyKey, so a retry could repeat its effect`,
        hint: 'add an "idempotencyKey" expression such as "input.orderId" that the receiver uses to drop repeats, or set maxAttempts to 1',
      });
    }
    if (external && !escalates && !outs.some((e) => e.outcomes.has('unknown') || e.outcomes.has('any'))) {
      ctx.atStep(v, [], {
        code: 'unhandled-unknown',
        message: `external step "${step.id}" can end unknown (lost reply, timeout, crash) and has no path for that outcome`,
        hint: 'add an edge with "on": "unknown" to a step that checks whether the effect happened, or set "onExhausted": "escalate"',
      });
    }
    const cause = exposedBy[v] ?? -1;
    const handled = escalates || outs.some((e) => FAILURE_OUTCOMES.some((o) => e.outcomes.has(o)));
    if (cause >= 0 && canFail(step) && !handled) {
      const causeId = graph.step(cause).id;
      ctx.atStep(v, [], {
        code: 'unhandled-failure',
        message: `step "${step.id}" can fail after external step "${causeId}" took effect, and nothing handles that failure`,
        hint: `add an edge with "on": "failed", "rejected" or "expired" from "${step.id}", set "onExhausted": "escalate", or give "${causeId}" a compensation`,
      });
    }
    if (external && step.compensation === undefined && failsDownstream[v] === 1) {
      ctx.atStep(v, [], {
        code: 'absent-compensation',
        severity: 'warning',
        message: `external step "${step.id}" is followed by steps that can fail, and has no compensation to offset its effect`,
        hint: `add a step that undoes it, such as cancel_${step.id}, and name it in "compensation"`,
      });
    }
  }
}
