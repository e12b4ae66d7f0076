// Choosing an agent's executor at run time (docs/routing.md): the `candidates` an agent step may
// list (provider and model, with a cost and capability tags) and the rule (`choose`) that picks
// one when each attempt starts: in order (as listed, or cheapest first), preferring candidates
// whose tags the step's input asks for, passing over a provider whose circuit is open, and
// escalating to the next candidate when the output's confidence is below a threshold.
import { z } from 'zod';
import { Expression } from './json-schema-value.ts';

export const AGENT_PROVIDERS = ['openai', 'anthropic', 'mock'] as const;
export type AgentProvider = (typeof AGENT_PROVIDERS)[number];

/** The name of an API key's environment variable (never the key itself). */
export const ApiKeyEnv = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name such as OPENAI_API_KEY')
  .describe('name of the environment variable holding the key; keys never appear in definitions');

/** One scripted reply of the `mock` provider; attempt N uses reply N (the last one repeats). */
export const MockReply = z.strictObject({
  output: z.unknown().optional().describe('structured output returned as the model reply'),
  text: z.string().optional().describe('raw reply text (used as-is, for malformed-reply tests)'),
  error: z
    .strictObject({
      code: z.string().min(1),
      message: z.string(),
      status: z.number().int().optional(),
      retryAfterMs: z.number().int().nonnegative().optional(),
    })
    .optional(),
  delayMs: z.number().int().nonnegative().optional(),
  usage: z
    .strictObject({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() })
    .optional(),
});

export const MockScript = z.strictObject({ replies: z.array(MockReply).min(1, 'mock.replies needs at least one reply') });

const Tag = z.string().min(1).regex(/^[a-z0-9][a-z0-9_-]*$/, 'a tag is a lowercase word such as "legal" or "code-review"');

/**
 * One executor an agent step may use. Its `id` names it in the attempt's route, in scenarios
 * (`candidate` in a case's condition, `expect.attempts[].candidate`) and in `weft compare`.
 *
 * @example { "id": "small", "provider": "openai", "model": "gpt-4o-mini", "cost": 0.15, "tags": ["general"] }
 */
export const AgentCandidate = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'a candidate id is a slug such as "small" or "claude-legal"').describe('names the candidate in routes, scenarios and comparisons'),
    provider: z.enum(AGENT_PROVIDERS),
    model: z.string().min(1).optional().describe('model name; required for openai and anthropic'),
    baseUrl: z.url().optional().describe('server URL for an openai-compatible provider'),
    apiKeyEnv: ApiKeyEnv.optional(),
    cost: z.number().nonnegative().optional().describe('relative cost (e.g. USD per million output tokens); `order: "cheapest"` sorts by it, a candidate without one comes last'),
    tags: z.array(Tag).optional().describe('capabilities, matched against the tags `choose.matchTags` gives'),
    mock: MockScript.optional().describe('the mock provider\'s replies for this candidate; its Nth use in an activation gets reply N'),
  })
  .refine((c) => c.provider === 'mock' || c.model !== undefined, { message: 'an openai or anthropic candidate needs a model', path: ['model'] })
  .refine((c) => c.provider !== 'mock' || c.mock !== undefined, { message: 'a mock candidate needs mock.replies', path: ['mock'] });
export type AgentCandidate = z.infer<typeof AgentCandidate>;

/** The provider codes that count against a provider's circuit (docs/routing.md "Circuits"). */
export const CIRCUIT_FAILURE_CODES = ['provider_unavailable', 'connection_failed', 'connection_lost', 'rate_limited', 'timeout'] as const;

export const ChooseRule = z.strictObject({
  order: z.enum(['listed', 'cheapest']).optional().describe('"listed" (default) tries candidates as listed; "cheapest" by ascending cost'),
  confidence: z
    .strictObject({
      expression: Expression.describe('JSONata over {output, input, steps, run} giving a number, e.g. "output.confidence"'),
      below: z.number().describe('an output whose confidence is below this fails with low_confidence, and the next attempt goes to the next candidate'),
    })
    .optional(),
  matchTags: Expression.optional().describe('JSONata over {input, steps, run} giving the wanted tag (or tags); candidates with one of them are tried first'),
  circuit: z
    .strictObject({
      failures: z.number().int().positive().describe('consecutive provider failures (unavailable, connection, rate limit, timeout) that open the circuit'),
      coolDownMs: z.number().int().positive().describe('how long an open circuit passes its provider over before one trial call'),
    })
    .optional(),
});
export type ChooseRule = z.infer<typeof ChooseRule>;
