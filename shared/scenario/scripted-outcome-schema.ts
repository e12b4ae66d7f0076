// A scripted outcome: what the outside world answers to one call of a step. A plain outcome is
// fixed; a `cases` outcome picks one by JSONata conditions over what the call was given
// ({input, variant, attempt, activation, candidate, partial}), so a retry variant, a changed input, the
// agent candidate an attempt runs on (docs/routing.md) or the partial attempt it continues can be
// answered differently in virtual time.
import jsonata from 'jsonata';
import { z } from 'zod';

const Ms = z.number().int().nonnegative();

/**
 * What a scripted call used and cost, as a provider would report it: `usage` is priced by the
 * scenario's (or workspace's) price table like a real reply's; `cost` fixes the amount instead.
 */
const Billing = {
  usage: z.strictObject({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() }).optional(),
  cost: z.number().nonnegative().optional().describe("what the call cost, in the price table's currency"),
};

export const PlainOutcome = z.union([
  z.strictObject({ succeed: z.unknown(), takeMs: Ms.optional(), ...Billing }),
  z.strictObject({ fail: z.string().min(1), message: z.string().optional(), retryable: z.boolean().optional(), takeMs: Ms.optional(), ...Billing }),
  z.strictObject({ unknown: z.string().min(1), takeMs: Ms.optional() }),
  /** Part of the work done: `partial` is the part's output, `remaining` what is left (docs/long-running.md#partial-completion). */
  z.strictObject({ partial: z.unknown(), remaining: z.unknown().optional(), takeMs: Ms.optional(), ...Billing }),
  z.strictObject({ hang: z.literal(true) }),
]);
export type PlainOutcome = z.infer<typeof PlainOutcome>;

/** A JSONata condition, parsed when the file is read so a typo is a schema error with its path. */
const Condition = z.string().min(1).superRefine((text, ctx) => {
  try {
    jsonata(text);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not a JSONata expression: ${(e as Error).message}` });
  }
});

export const CaseOutcome = z.strictObject({
  cases: z
    .array(z.strictObject({ when: Condition.describe('JSONata over {input, variant, attempt, activation, candidate, partial}; true picks `then`'), then: PlainOutcome }))
    .min(1),
  else: PlainOutcome.optional().describe('when no case matches (without it, no match fails the scenario)'),
});
export type CaseOutcome = z.infer<typeof CaseOutcome>;
