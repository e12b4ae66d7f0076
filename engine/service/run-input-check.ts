// A run input against its workflow's input schema, for start, fork and revise. Its own module:
// the JSON Schema validator loads with the commands that check an input, not with every read.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { checkAgainstSchema } from '../runtime/output-contract.ts';
import { ServiceError } from './service-error.ts';

/** Throws ServiceError('bad-input', path "input") when `input` does not match; the message names no flag. */
export function checkRunInput(workflow: Workflow, input: unknown): void {
  if (workflow.input === undefined) return;
  const problems = checkAgainstSchema(workflow.input, input);
  if (problems !== undefined) throw new ServiceError('bad-input', `the input does not match the input schema of workflow "${workflow.id}": ${problems}`, 'input');
}
