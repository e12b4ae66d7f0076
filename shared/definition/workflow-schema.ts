// Definition format v1: the zod schema is the single source of truth. The JSON Schema in
// docs/weft-v1.schema.json is generated from it (npm run schema) and a test keeps it fresh.
import { z } from 'zod';
import { EDGE_OUTCOMES, EFFECTS, ON_REVISE, STEP_ID_PATTERN, WORKFLOW_ID_PATTERN } from './names.ts';
import { Expression, JsonSchemaValue } from './json-schema-value.ts';
import {
  AgentConfig,
  CommandConfig,
  EndConfig,
  EventConfig,
  HttpConfig,
  HumanConfig,
  JoinConfig,
  MapConfig,
  RouterConfig,
  ScriptConfig,
  SubworkflowConfig,
  TransformConfig,
  WaitConfig,
} from './step-config.ts';

const StepId = z
  .string()
  .regex(STEP_ID_PATTERN, 'a step id is a name of letters, digits and _ that does not start with a digit');

export const RetryPolicy = z.strictObject({
  maxAttempts: z.number().int().positive().max(1000).optional().describe('attempts in all, including the first'),
  initialIntervalMs: z.number().int().nonnegative().optional(),
  backoffCoefficient: z.number().min(1).optional(),
  maxIntervalMs: z.number().int().nonnegative().optional(),
  jitter: z.number().min(0).max(1).optional().describe('fraction of the interval to randomise'),
  nonRetryable: z.array(z.string().min(1)).optional().describe('error codes never retried'),
  variants: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .describe('config patches merged into attempts 2, 3, ... (the last one repeats)'),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

const stepCommon = {
  id: StepId,
  name: z.string().optional(),
  description: z.string().optional(),
  input: Expression.optional().describe('JSONata over {input, steps, run} giving the step input'),
  output: JsonSchemaValue.optional().describe('JSON Schema the step output must satisfy'),
  accept: Expression.optional().describe('JSONata acceptance rule over {output, input, steps, run}'),
  effect: z.enum(EFFECTS).optional().describe('none (default), idempotent or external'),
  idempotencyKey: Expression.optional(),
  retry: RetryPolicy.optional(),
  timeoutMs: z.number().int().positive().optional(),
  deadlineMs: z.number().int().positive().optional().describe('how long a waiting step may wait'),
  onExhausted: z.enum(['fail', 'escalate']).optional(),
  onRevise: z
    .enum(ON_REVISE)
    .optional()
    .describe('when a revision changes the input after the step produced evidence: ask (default for external steps) holds it for a decision, rerun (default for others) runs it again, keep keeps the evidence'),
  compensation: StepId.optional().describe('id of the step that offsets this one'),
  resource: z.string().min(1).optional().describe('concurrency pool named in limits.concurrency'),
  optional: z.boolean().optional().describe('a join does not wait for this branch'),
};

const step = <K extends string, C extends z.ZodType>(kind: K, config: C) =>
  z.strictObject({ ...stepCommon, kind: z.literal(kind), config });

export const Step = z.discriminatedUnion('kind', [
  step('agent', AgentConfig),
  step('script', ScriptConfig),
  step('command', CommandConfig),
  step('http', HttpConfig),
  step('human', HumanConfig),
  step('wait', WaitConfig),
  step('event', EventConfig),
  step('router', RouterConfig.optional()),
  step('join', JoinConfig.optional()),
  step('map', MapConfig),
  step('subworkflow', SubworkflowConfig),
  step('transform', TransformConfig),
  step('end', EndConfig.optional()),
]);
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
