// The input of a step that receives a handoff (`handoffFrom`, docs/long-running.md): its resolved
// input with the giving step's record added under `handoff`. The attempt runner and the revision
// plan both resolve an input through here, so the input an attempt records, the hash its
// evidence covers and the one a revision plans with are the same.
import { HANDOFF_KEY } from '../../shared/definition/handoff-record.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';

/**
 * `input` with the record of `step.handoffFrom` under `handoff`, read from the giving step's
 * latest output in `view`; `input` itself for a step that receives none. Throws (the attempt
 * fails with `input_error`) when there is no record to receive, or the input is not an object.
 *
 * @example
 * withHandoff({ id: 'draft', kind: 'transform', handoffFrom: 'research', config: { expression: 'input' } }, { topic: 't' }, { research: { output: { handoff: { completed: 'notes', next: 'write' } } } });
 * // { topic: 't', handoff: { completed: 'notes', next: 'write' } }
 */
export function withHandoff(step: Step, input: unknown, view: Readonly<Record<string, { output: unknown } | undefined>>): unknown {
  const from = step.handoffFrom;
  if (from === undefined) return input;
  const output = view[from]?.output;
  const record = typeof output === 'object' && output !== null && !Array.isArray(output) ? (output as Record<string, unknown>)[HANDOFF_KEY] : undefined;
  if (record === undefined) throw new Error(`step "${step.id}" receives the handoff of "${from}", but "${from}" has no output with a handoff record in this run`);
  if (input === undefined || input === null) return { [HANDOFF_KEY]: record };
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new Error(`step "${step.id}" receives the handoff of "${from}" under the "handoff" key of its input, but its input is ${Array.isArray(input) ? 'an array' : `a ${typeof input}`}; make its "input" expression give an object`);
  }
  if (Object.hasOwn(input, HANDOFF_KEY)) {
    throw new Error(`step "${step.id}" receives the handoff of "${from}" under the "handoff" key of its input, but its input already has a "handoff" key; rename that key in its "input" expression`);
  }
  return { ...(input as Record<string, unknown>), [HANDOFF_KEY]: record };
}
