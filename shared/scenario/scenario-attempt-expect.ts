// Assertions on one attempt of a step, and on each activation of a step: what an attempt was
// given (its resolved input and retry variant), how it ended (error code, evidence) and when it
// started in virtual time; what each pass over a step settled with.
import { z } from 'zod';
import { PASSED_OVER } from '../events/attempt-route.ts';

export const ScenarioAttemptExpect = z.strictObject({
  step: z.string().min(1),
  activation: z.number().int().positive().optional().describe('which activation of the step (default 1)'),
  attempt: z.number().int().positive().describe('the attempt number within the activation (1 is the first)'),
  state: z.enum(['running', 'succeeded', 'failed', 'unknown', 'partial']).optional(),
  input: z.unknown().optional().describe('the resolved input the attempt was given'),
  variant: z.number().int().nonnegative().nullable().optional().describe('the retry variant merged into its config: 0 is retry.variants[0]; null for none'),
  error: z.string().nullable().optional().describe('the error code it ended with; null for none'),
  evidence: z.unknown().optional().describe('the output it recorded as evidence (a success, or work that failed its contract)'),
  partial: z.unknown().optional().describe('a partial attempt: the part done it reported (docs/long-running.md#partial-completion)'),
  remaining: z.unknown().optional().describe('a partial attempt: what it said remains'),
  startedAtMs: z.number().int().nonnegative().optional().describe('virtual time after the scenario starts'),
  candidate: z.string().nullable().optional().describe('an agent step with candidates: the id of the candidate the attempt ran on; null when none could run'),
  passedOver: z
    .record(z.string(), z.enum(PASSED_OVER))
    .optional()
    .describe('an agent step with candidates: candidate id → why it was passed over (circuit_open, low_confidence, tags_unmatched, later); exactly these'),
  reason: z.string().optional().describe('an agent step with candidates: the text of why its candidate was chosen'),
});
export type ScenarioAttemptExpect = z.infer<typeof ScenarioAttemptExpect>;

export const ScenarioActivationExpect = z.strictObject({
  outcome: z.string().optional().describe('how this activation settled'),
  output: z.unknown().optional().describe('the output it settled with'),
});
