// What a step produces when its definition declares no `output` schema. Human, event and wait
// steps have outputs the engine itself builds, so downstream reads of them can be checked.
import type { Step } from '../../definition/workflow-schema.ts';

const HUMAN_OUTPUT = {
  type: 'object',
  properties: {
    decision: { type: 'string', enum: ['approved', 'rejected'] },
    by: { type: 'string' },
    reason: { type: 'string' },
    choice: { type: 'string' },
    data: {},
    at: { type: 'string' },
  },
};

const EVENT_OUTPUT = {
  type: 'object',
  properties: { name: { type: 'string' }, key: { type: 'string' }, id: { type: 'string' }, data: {}, at: { type: 'string' } },
};

const WAIT_OUTPUT = { type: 'object', properties: { firedAt: { type: 'string' } } };

/** The schema of a step's output: its own `output`, else what the engine builds, else none. */
export function outputSchemaOf(step: Step): Record<string, unknown> | undefined {
  if (step.output) return step.output;
  if (step.kind === 'human') {
    return step.config.form ? { ...HUMAN_OUTPUT, properties: { ...HUMAN_OUTPUT.properties, data: step.config.form } } : HUMAN_OUTPUT;
  }
  if (step.kind === 'event') return EVENT_OUTPUT;
  if (step.kind === 'wait') return WAIT_OUTPUT;
  return undefined;
}
