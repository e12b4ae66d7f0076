// The evidence of a run-time choice of executor (docs/routing.md): which candidates an agent
// attempt considered, why each one not chosen was passed over, which one it chose and why. Carried
// by `attempt_started.data.route`, kept on the attempt by the fold, shown by `weft inspect`, the
// step detail in the app and `weft compare`.
import { z } from 'zod';

/**
 * Why a candidate was not chosen:
 * - `circuit_open`: its provider failed too often lately and is passed over until the cool-down ends;
 * - `low_confidence`: it was already tried in this activation and its output's confidence was too low;
 * - `tags_unmatched`: another candidate has a tag the input asks for (it stays a fallback);
 * - `later`: it comes after the chosen one in the order.
 */
export const PASSED_OVER = ['circuit_open', 'low_confidence', 'tags_unmatched', 'later'] as const;
export type PassedOver = (typeof PASSED_OVER)[number];

/** The states of a provider's circuit (docs/routing.md "Circuits"). */
export const CIRCUIT_STATES = ['closed', 'open', 'half_open'] as const;
export type CircuitState = (typeof CIRCUIT_STATES)[number];

export const ConsideredCandidate = z.object({
  id: z.string(),
  provider: z.string(),
  model: z.string().optional(),
  /** The server of an openai-compatible candidate, when it names one. */
  baseUrl: z.string().optional(),
  cost: z.number().optional(),
  tags: z.array(z.string()).optional(),
  /** The state of its provider's circuit when the choice was made. */
  circuit: z.enum(CIRCUIT_STATES),
  /** Absent on the chosen candidate. */
  passedOver: z.enum(PASSED_OVER).optional(),
  /** In words: "circuit open since 10:02:14 after 3 failures (until 10:03:14)". */
  why: z.string().optional(),
});
export type ConsideredCandidate = z.infer<typeof ConsideredCandidate>;

/**
 * One attempt's choice. `candidates` are in the order they were considered; `chosen` is the id of
 * the one that ran (null: none could, and the attempt failed with `no_candidate`).
 *
 * @example { candidates: [{ id: 'small', ..., passedOver: 'low_confidence', why: 'tried in attempt 1: confidence 0.4 below 0.7' }, { id: 'large', ... }], chosen: 'large', reason: 'escalated: small was not confident enough' }
 */
export const AttemptRoute = z.object({
  candidates: z.array(ConsideredCandidate),
  chosen: z.string().nullable(),
  reason: z.string(),
  /** The tags the step's input asked for (`choose.matchTags`), when the rule has one. */
  wantedTags: z.array(z.string()).optional(),
  order: z.enum(['listed', 'cheapest']),
});
export type AttemptRoute = z.infer<typeof AttemptRoute>;
