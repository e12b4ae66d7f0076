// What an executor reports about an attempt besides its result. One schema: the events that carry
// it, the RunDetail read model and the executors all use this, so a new field reaches all of them.
import { z } from 'zod';

/**
 * Facts about an attempt worth keeping with it: provider, model, token use, latency, HTTP status,
 * a provider-requested wait before a retry, and its cost.
 *
 * @example
 * AttemptMeta.parse({ provider: 'openai', model: 'gpt-4o-mini', usage: { inputTokens: 12, outputTokens: 3 }, latencyMs: 840 });
 */
export const AttemptMeta = z.object({
  provider: z.string().optional(),
  model: z.string().optional(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  latencyMs: z.number().optional(),
  /** The HTTP status of the reply (http steps, agent providers). */
  status: z.number().optional(),
  /** Provider-requested wait before a retry (a 429's retry-after), in ms. */
  retryAfterMs: z.number().optional(),
  /**
   * What the attempt cost, fixed when it was recorded (docs/cost.md): from its token usage and the
   * workspace's price table (`tokens`), from the step's declared cost per call (`declared`), or
   * given by a scenario's script (`scripted`). `amount` is in the price table's currency (USD
   * unless it says otherwise).
   */
  cost: z.object({ amount: z.number().nonnegative(), currency: z.string(), basis: z.enum(['tokens', 'declared', 'scripted']) }).optional(),
});
export type AttemptMeta = z.infer<typeof AttemptMeta>;

/** The events whose data carries an attempt's meta, and so its cost (apply-event.ts reads `meta` on these alone). */
export const META_EVENTS: ReadonlySet<string> = new Set(['attempt_succeeded', 'attempt_failed', 'attempt_unknown', 'attempt_partial']);
