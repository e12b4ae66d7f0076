// What a debug run paused at a breakpoint lets the user do, in the app's own words (the engine's
// texts name the CLI's `weft continue` and `weft step`). The meanings are the engine's
// (docs/engine.md, Debug runs): Continue and Step both start the step the run paused before;
// Step then pauses before the next step that starts, breakpoint or not; Resume, on a run paused at
// a breakpoint, passes it like Continue, and the breakpoints stay set.
import type { RunDebugView } from '../../../shared/api/restart-record.ts';

export interface PauseWords {
  /** "Paused before research, at its breakpoint." */
  where: string;
  continue: string;
  step: string;
  resume: string;
}

/** The words for a debug run paused at `debug.pausedAt`; null when it is not paused there. */
export function pauseWords(debug: RunDebugView | undefined): PauseWords | null {
  const at = debug?.pausedAt ?? null;
  if (debug === undefined || at === null) return null;
  const step = at.step;
  const why = debug.breakpoints.includes(step) ? 'at its breakpoint' : 'after a Step';
  const onlyHere = debug.breakpoints.length === 1 && debug.breakpoints[0] === step;
  return {
    where: `Paused before ${step} started, ${why}.`,
    continue: onlyHere
      ? `starts ${step} and runs on: no other step has a breakpoint, so only a loop back to ${step} would pause again.`
      : `starts ${step} and runs on until a step with a breakpoint (${debug.breakpoints.join(', ')}) is about to start again.`,
    step: `starts ${step}, then pauses again before the next step that starts, with or without a breakpoint.`,
    resume: `does what Continue does here: it starts ${step} and runs on. The breakpoints stay set; to run without them, start a normal run.`,
  };
}

/**
 * The paused step's "what may happen next" line in the app's words, in place of the engine's
 * (which names the CLI): whole in the step's detail, short in the restart record's list.
 */
export function pausedStepNext(debug: RunDebugView | undefined, stepId: string, form: 'whole' | 'short'): string | null {
  const words = pauseWords(debug);
  if (words === null || debug?.pausedAt?.step !== stepId) return null;
  const where = words.where.charAt(0).toLowerCase() + words.where.slice(1);
  if (form === 'short') return `ready: ${where} Continue or Step, at the top of the page, starts it.`;
  return `ready: ${where} Continue ${words.continue} Step ${words.step} Resume ${words.resume}`;
}
