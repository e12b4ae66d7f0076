// How a stored run ended, as a scenario's `expect`: the run's state; per step it reached, its
// state, outcome (where it says more than the state), output, attempts and whether it was passed
// over; the edges it took, in the order first taken; and the steps it never reached.
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { ScenarioExpect } from '../../shared/scenario/scenario-schema.ts';
import { runMetrics } from '../metrics/run-metrics.ts';

const FAILURES: ReadonlySet<string> = new Set(['failed', 'unknown', 'timed_out', 'budget_exceeded']);
/** Kinds whose output holds the time it was made (`at`: a decision, an event's arrival): in virtual time it differs. */
const CLOCKED_KINDS: ReadonlySet<string> = new Set(['human', 'event']);

/**
 * Whether the scenario can expect the step's output as it was: not a failure's (an HTTP error's
 * response is not part of a scripted failure), and not one stamped with the engine's clock (the
 * decision or event it holds is in the scenario's `decisions` or `events`).
 */
function hasRecordedOutput(kind: string, outcome: string | null, output: unknown): boolean {
  return output !== undefined && !(outcome !== null && FAILURES.has(outcome)) && !CLOCKED_KINDS.has(kind);
}

type StepExpect = NonNullable<ScenarioExpect['steps']>[string];

/** The expectations a scenario made from this run asserts: what the run did, value for value. */
export function recordedExpect(model: RunModel, events: readonly RunEvent[]): ScenarioExpect {
  const steps: Record<string, StepExpect> = {};
  const neverRan: string[] = [];
  for (const def of model.workflow.steps) {
    const s = model.steps.get(def.id);
    if (s === undefined) continue;
    if (s.attempts.length === 0 && (s.state === 'blocked' || s.state === 'skipped' || s.activation === 0)) {
      neverRan.push(def.id);
      continue;
    }
    steps[def.id] = {
      state: s.state,
      ...(s.outcome === null || s.outcome === s.state ? {} : { outcome: s.outcome }),
      ...(hasRecordedOutput(def.kind, s.outcome, s.output) ? { output: s.output } : {}),
      attempts: s.attempts.length,
      ...(s.passedOver === null ? {} : { passedOver: true }),
    };
  }
  // The edges taken as the scenario's check reads them (run metrics), each once.
  const path = [...new Set(runMetrics(events).path)];
  return { state: model.state, steps, path, ...(neverRan.length === 0 ? {} : { neverRan }) };
}
