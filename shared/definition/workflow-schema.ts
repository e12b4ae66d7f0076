// Definition format v1: the zod schema is the single source of truth. The JSON Schema in
// docs/weft-v1.schema.json is generated from it (npm run schema) and a test keeps it fresh.
import { z } from 'zod';
import { EDGE_OUTCOMES, STEP_KINDS, WORKFLOW_ID_PATTERN } from './names.ts';
import { Expression, JsonSchemaValue } from './json-schema-value.ts';
import { StepId } from './step-common.ts';
import { KIND_SPECS } from './step-kinds.ts';

// One member per kind of the registry (step-kinds.ts), in the order of STEP_KINDS.
const [firstKind, ...otherKinds] = STEP_KINDS;
export const Step = z.discriminatedUnion('kind', [KIND_SPECS[firstKind].schema, ...otherKinds.map((k) => KIND_SPECS[k].schema)]);
export type Step = z.infer<typeof Step>;

const Outcome = z.enum(EDGE_OUTCOMES);

export const Edge = z.strictObject({
  id: z.string().min(1),
  from: StepId,
  to: StepId,
  on: z
    .union([Outcome, z.array(Outcome).min(1)])
    .optional()
    .describe('outcome(s) of `from` this edge follows; default succeeded. "exhausted": taken when a loop edge of `from` would be taken but has used up its maxTraversals'),
  when: Expression.optional().describe('JSONata condition over {output, input, steps, run}'),
  default: z.boolean().optional().describe("the router's fallback when no condition matches"),
  maxTraversals: z.number().int().positive().optional().describe('required on an edge that closes a cycle'),
});
export type Edge = z.infer<typeof Edge>;

export const Limits = z.strictObject({
  concurrency: z.record(z.string().min(1), z.number().int().positive()).optional(),
  maxParallelRuns: z.number().int().positive().optional(),
  budget: z.number().nonnegative().optional().describe("the most one run may spend, in the policy's currency (docs/budgets.md); the smallest of this, the start's budget and the policy's perRun applies"),
});

export const Workflow = z.strictObject({
  $schema: z.string().optional(),
  format: z.literal('weft/v1'),
  id: z.string().regex(WORKFLOW_ID_PATTERN, 'a workflow id is a slug such as "order-flow"'),
  version: z.number().int().positive(),
  name: z.string().min(1),
  description: z.string().optional(),
  input: JsonSchemaValue.optional().describe('JSON Schema of the run input'),
  output: Expression.optional().describe("JSONata over {input, steps, run} giving the run's result"),
  steps: z.array(Step).min(1, 'a workflow needs at least one step'),
  edges: z.array(Edge),
  limits: Limits.optional(),
  layout: z.record(z.string(), z.strictObject({ x: z.number(), y: z.number() })).optional(),
});
export type Workflow = z.infer<typeof Workflow>;
