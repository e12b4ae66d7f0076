// A debug run's settings, checked against the definition before anything is stored: every
// breakpoint and pin names a step of the workflow, a pin is not on an end step, and a pinned
// output matches the step's output schema (its accept rule is checked when the pin is used,
// as for a real output, since it may read other steps' outputs).
import type { StartRunDebug } from '../../shared/api/start-run-command.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunDebugSettings } from '../../shared/events/run-event.ts';
import { outputViolations } from '../runtime/output-contract.ts';
import { ServiceError } from './service-error.ts';

/**
 * The run's debug settings, or undefined when it names no breakpoint and no pin (a normal run).
 *
 * @example checkDebug(workflow, { breakpoints: ['draft'], pins: { research: { notes: [] } } })
 */
export function checkDebug(workflow: Workflow, debug: StartRunDebug | undefined): RunDebugSettings | undefined {
  const breakpoints = [...new Set(debug?.breakpoints ?? [])];
  const pins = debug?.pins ?? {};
  if (breakpoints.length === 0 && Object.keys(pins).length === 0) return undefined;
  const steps = new Map(workflow.steps.map((s) => [s.id, s]));
  const known = [...steps.keys()].join(', ');
  for (const id of breakpoints) {
    if (!steps.has(id)) throw new ServiceError('bad-input', `the breakpoint "${id}" names no step of workflow "${workflow.id}"; its steps are ${known}; nothing was run`, '$.debug.breakpoints');
  }
  for (const [id, output] of Object.entries(pins)) {
    const step = steps.get(id);
    if (step === undefined) throw new ServiceError('bad-input', `the pin "${id}" names no step of workflow "${workflow.id}"; its steps are ${known}; nothing was run`, '$.debug.pins');
    if (step.kind === 'end') throw new ServiceError('bad-input', `the pin "${id}" is on an end step, which gives no output of its own; pin a step before it; nothing was run`, '$.debug.pins');
    const problems = outputViolations(step, output);
    if (problems !== undefined) throw new ServiceError('bad-input', `the pinned output of "${id}" does not match its output schema: ${problems}; nothing was run`, '$.debug.pins');
  }
  return { breakpoints, pins: { ...pins } };
}
