// The circuits of the providers agent steps call (docs/routing.md "Circuits"), as
// `GET /api/providers/circuits` answers: per provider and server, closed, open or half-open, its
// consecutive failures and when an open one lets a call through again.
import { z } from 'zod';
import { CIRCUIT_STATES } from '../events/attempt-route.ts';

export const CircuitView = z.strictObject({
  /** "openai https://api.openai.com/v1", "mock model small". */
  key: z.string(),
  provider: z.string(),
  /** The server its calls go to; null for the mock provider. */
  baseUrl: z.string().nullable(),
  state: z.enum(CIRCUIT_STATES),
  /** Consecutive failures since its last reply. */
  failures: z.number().int().nonnegative(),
  lastFailureAtMs: z.number().nullable(),
  /** While open: when it lets one trial call through (the engine's clock). */
  reopensAtMs: z.number().nullable(),
  /** The rule (`choose.circuit`) a step last judged it by; null when no step has a rule for it. */
  rule: z.strictObject({ failures: z.number().int().positive(), coolDownMs: z.number().int().positive() }).nullable(),
  /** How often it opened since the engine started. */
  opened: z.number().int().nonnegative(),
});
export type CircuitView = z.infer<typeof CircuitView>;

export const ProviderCircuits = z.strictObject({
  /** The engine's clock when the answer was made. */
  atMs: z.number(),
  circuits: z.array(CircuitView),
});
export type ProviderCircuits = z.infer<typeof ProviderCircuits>;
