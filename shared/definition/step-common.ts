// The fields every step has, whatever its kind (docs/definition-format.md, "Steps"). The step-kind
// registry (step-kinds.ts) adds `kind` and the kind's `config` to make each kind's step schema.
import { z } from 'zod';
import { EFFECTS, ON_REVISE, STEP_ID_PATTERN } from './names.ts';
import { Expression, JsonSchemaValue } from './json-schema-value.ts';
import { CommandConfig, HttpConfig, ScriptConfig } from './step-config.ts';

export const StepId = z
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

const fetchCommon = {
  effect: z.literal('read').optional().describe('the author\'s word that this command or script only reads (required unless it is an http GET or HEAD)'),
  timeoutMs: z.number().int().positive().optional().describe('how long the read may take (default 30000): a read that takes longer makes the step stale'),
};

/**
 * A read a revalidate check runs first (docs/long-running.md, "A check that reads again"): an
 * inline http, command or script step with that kind's config. Its output, as that kind's step
 * would give it, is `$fetched` in the check; a failed read makes the step stale.
 *
 * @example { "kind": "http", "config": { "method": "GET", "url": "{{ input.apiBase }}/quotes/{{ input.item }}" } }
 */
export const RevalidateFetch = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('http'), config: HttpConfig, ...fetchCommon }),
  z.strictObject({ kind: z.literal('command'), config: CommandConfig, ...fetchCommon }),
  z.strictObject({ kind: z.literal('script'), config: ScriptConfig, ...fetchCommon }),
]);
export type RevalidateFetch = z.infer<typeof RevalidateFetch>;

/** A revalidate fetch's time to answer when it names none. */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/**
 * A waiting step's check of its assumptions when it resumes (docs/long-running.md, "Revalidation
 * on resume"): after a wait longer than `afterMs`, after an engine restart, after a migration.
 * `check` is JSONata over {input, steps, run, output} with `$now()`, `$millis()` (the engine's
 * clock), `$waitedMs`, `$trigger` and, with `fetch`, `$fetched`; true means fresh, anything else
 * settles the step `stale`.
 */
export const Revalidate = z.strictObject({
  check: Expression.describe('JSONata over {input, steps, run, output} with $now(), $millis(), $waitedMs, $trigger and $fetched: true when what the step decided on still holds'),
  afterMs: z.number().int().nonnegative().optional().describe('a wait longer than this triggers the check (default 0: every wait); a restart or a migration during the wait always does'),
  description: z.string().optional().describe('what the check guards, in words'),
  fetch: RevalidateFetch.optional().describe('a read run first, its output bound in the check as $fetched (docs/long-running.md)'),
});
export type Revalidate = z.infer<typeof Revalidate>;

export const stepCommon = {
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
  cost: z
    .strictObject({ perCall: z.number().nonnegative().describe('amount billed for each attempt that runs, in the price table\'s currency') })
    .optional()
    .describe('what a call of this step costs, for steps that bill outside token usage (a paid API); see docs/cost.md'),
  revalidate: Revalidate.optional().describe('a check run when this waiting step resumes (human, event, wait): false settles it stale (docs/long-running.md)'),
  readsSensitive: z
    .boolean()
    .optional()
    .describe('the step reads values other steps\' output schemas mark "x-weft-sensitive": it gets them at run time; without it, it gets their redacted reference (docs/long-running.md)'),
  tags: z.array(z.string().min(1)).optional().describe('labels a workspace policy selects steps by, e.g. ["payment"] (docs/policies.md)'),
  handoff: z
    .boolean()
    .optional()
    .describe('true: the step\'s output carries a handoff record under "handoff" ({completed, next, constraints, refs}), checked like the rest of its output (docs/long-running.md)'),
  handoffFrom: StepId.optional().describe('id of an upstream step that gives a handoff: its record becomes the "handoff" key of this step\'s input'),
};

/**
 * The strict schema of a step of one kind: the common fields, `kind` and the kind's `config`.
 *
 * @example
 * stepSchema('transform', TransformConfig).parse({ id: 'shape', kind: 'transform', config: { expression: 'input' } });
 */
export const stepSchema = <K extends string, C extends z.ZodType>(kind: K, config: C) =>
  z.strictObject({ ...stepCommon, kind: z.literal(kind), config });
