// What a step produces when its definition declares no `output` schema. Human, event, wait, http
// and join steps have outputs the engine itself builds, so downstream reads of them can be checked.
import type { Step } from '../../definition/workflow-schema.ts';
import type { WorkflowGraph } from '../graph/workflow-graph.ts';
import { outputContractOf } from '../../definition/handoff-record.ts';

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

const HTTP_OUTPUT = {
  type: 'object',
  properties: { status: { type: 'integer' }, headers: { type: 'object' }, body: {} },
};

/**
 * The schema of a step's output: its own `output` (with its handoff record, if it gives one), else what the engine builds, else none.
 * A join's output holds the outputs of the branches that arrived, by step id: after an `any` or
 * `atLeast` join, `steps.<join>.output.<branch>` is how to read whichever branches ran.
 */
export function outputSchemaOf(graph: WorkflowGraph, v: number): Record<string, unknown> | undefined {
  const step: Step = graph.step(v);
  // A step that gives a handoff record has it in its output contract (handoff-record.ts).
  const contract = outputContractOf(step);
  if (contract) return contract;
  switch (step.kind) {
    case 'join': {
      const properties: Record<string, unknown> = {};
      for (const e of graph.in[v] ?? []) {
        const from = graph.step(e.from);
        // One level only: a branch that is itself a join stays open (no deep or repeated walks).
        properties[from.id] = (from.kind === 'join' ? undefined : outputSchemaOf(graph, e.from)) ?? {};
      }
      return { type: 'object', properties };
    }
    case 'http':
      return HTTP_OUTPUT;
    case 'human':
      return step.config.form ? { ...HUMAN_OUTPUT, properties: { ...HUMAN_OUTPUT.properties, data: step.config.form } } : HUMAN_OUTPUT;
    case 'event':
      return EVENT_OUTPUT;
    case 'wait':
      return WAIT_OUTPUT;
    // What the work, the child runs or the expression give: unknown without an `output` schema.
    case 'agent':
    case 'script':
    case 'command':
    case 'router':
    case 'map':
    case 'subworkflow':
    case 'transform':
    case 'end':
      return undefined;
    default:
      // A kind with no case above does not compile: say what its output is when the engine builds it.
      return step satisfies never;
  }
}
