// What an operator may do now, and why, computed by the same code that refuses an action (so a
// button the app shows is one the engine accepts). Only permitted actions are listed.
import { z } from 'zod';

/** Actions on one step of a run. */
export const STEP_ACTIONS = ['retry', 'skip', 'resolve', 'keep', 'fork', 'approve', 'reject', 'reassign'] as const;
export type StepActionName = (typeof STEP_ACTIONS)[number];
/** Actions on the whole run. */
export const RUN_LEVEL_ACTIONS = ['pause', 'resume', 'cancel', 'revise'] as const;
export type RunLevelActionName = (typeof RUN_LEVEL_ACTIONS)[number];
/** Actions on a debug run paused at a breakpoint (listed only there). */
export const DEBUG_ACTIONS = ['continue', 'step'] as const;
export type DebugActionName = (typeof DEBUG_ACTIONS)[number];

/**
 * One action a step permits, with the reason in words.
 *
 * @example
 * StepPermittedAction.parse({ action: 'resolve', why: 'attempt charge/1.1 outcome unknown' });
 */
export const StepPermittedAction = z.strictObject({ action: z.enum(STEP_ACTIONS), why: z.string().min(1) });
export type StepPermittedAction = z.infer<typeof StepPermittedAction>;

/** One action the run permits, with the reason in words. */
export const RunPermittedAction = z.strictObject({ action: z.enum([...RUN_LEVEL_ACTIONS, ...DEBUG_ACTIONS]), why: z.string().min(1) });
export type RunPermittedAction = z.infer<typeof RunPermittedAction>;
