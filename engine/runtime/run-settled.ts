// Whether a run has settled, as one pure decision: it has ended, or only waiting work remains
// (people, events, timers, escalations) and nothing is queued to act on it. `settled()` resolves
// then; a command that drives a run exits then.
import type { LiveRun } from './live-run.ts';
import { isQuiet, isTerminal } from '../../shared/run/run-status.ts';

export interface SettledView {
  /** Runs marked for the next tick. */
  dirty: ReadonlySet<string>;
  /** The runs the engine holds in memory, by id. */
  runs: ReadonlyMap<string, LiveRun>;
}

export function isRunSettled(live: LiveRun, engine: SettledView): boolean {
  if (live.busy || engine.dirty.has(live.model.runId) || live.inbox.length > 0 || live.actions.length > 0) return false;
  if (isTerminal(live.model.state)) return true;
  if (live.model.state === 'paused') return live.running.size === 0; // nothing moves until resumed
  if (live.model.budgetWait !== null) return true; // it waits on the clock for the next day's budget
  if (live.model.queued) {
    // Queued behind runs this engine drives: it will start when one of them ends.
    const wid = live.model.workflow.id;
    return ![...engine.runs.values()].some((l) => l.model.workflow.id === wid && !l.model.queued && l.model.state === 'running');
  }
  if (live.due.length > 0) return false;
  if (live.dirty.size > 0 || live.ready.length > 0) return false;
  if (live.model.state === 'running' || !isQuiet(live.model)) return false;
  // A waiting step's revalidate check may be reading again (revalidation-fetch.ts): not settled yet.
  if (live.running.size > 0) return false;
  // A step waiting on child runs this engine drives is work in progress, not a wait: a command
  // that drives the parent waits for them too, rather than exit and cut their attempts short.
  for (const s of live.model.steps.values()) {
    if (s.state !== 'waiting') continue;
    for (const c of s.children.values()) {
      const child = c.state === null ? engine.runs.get(c.runId) : undefined;
      if (child !== undefined && !isRunSettled(child, engine)) return false;
    }
  }
  return true;
}
