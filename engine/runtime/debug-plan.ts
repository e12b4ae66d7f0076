// A debug run's part of starting an attempt, as one pure decision: pause before the step
// (its breakpoint, or the first start after `weft step`), settle it with its pinned output
// without calling it, or go on as any run would.
import { activationKey, type RunModel } from '../../shared/run/run-model.ts';

export type DebugPlan =
  /** Not a debug run, or nothing of it applies to this attempt. */
  | { kind: 'none' }
  /** Pause the run before the attempt (breakpoint_hit); the step stays ready. */
  | { kind: 'break'; stepping: boolean; reason: string }
  /** Settle the attempt with the pinned output; the executor (or handler) is not called. */
  | { kind: 'pin'; output: unknown };

/**
 * What a debug run does before attempt `attempt` of the step's current activation starts. Only
 * an activation's first attempt pauses; a breakpoint passed once (continue, step, resume) is not
 * hit again by the same activation.
 *
 * @example debugPlan(run, 'draft', 1, 1) // { kind: 'break', stepping: false, reason: 'breakpoint at "draft"' }
 */
export function debugPlan(run: RunModel, stepId: string, activation: number, attempt: number): DebugPlan {
  const debug = run.debug;
  if (debug === null) return { kind: 'none' };
  if (attempt === 1 && !debug.passed.has(activationKey(stepId, activation))) {
    if (debug.breakpoints.includes(stepId)) return { kind: 'break', stepping: false, reason: `breakpoint at "${stepId}"` };
    if (debug.stepping) return { kind: 'break', stepping: true, reason: `stepped to "${stepId}" (weft step)` };
  }
  if (Object.hasOwn(debug.pins, stepId)) return { kind: 'pin', output: debug.pins[stepId] };
  return { kind: 'none' };
}
