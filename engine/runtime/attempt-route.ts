// Routing an agent attempt to one of its step's candidates (docs/routing.md), between the pure
// choice (route-choice.ts) and the runner: it reads the rule from the attempt's config (the step's
// config with its retry variant merged in: variants patch first, the candidate applies after),
// evaluates the tags the input asks for, asks the circuits, and gives the config the executor
// runs with. At the attempt's end it judges the output's confidence and feeds the circuit.
import { AgentConfig } from '../../shared/definition/step-config.ts';
import type { AgentCandidate } from '../../shared/definition/agent-route.ts';
import type { AttemptRoute } from '../../shared/events/attempt-route.ts';
import type { StepRuntime } from '../../shared/run/run-model.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { circuitEffect, type CircuitBreakers } from './circuit-breakers.ts';
import { evaluate, type RunContext } from './expressions.ts';
import { chooseRoute } from './route-choice.ts';

export interface RoutedAttempt {
  route: AttemptRoute;
  /** The config the executor runs with: the chosen candidate's provider, model, server, key and mock replies in place of the step's. */
  config: Record<string, unknown>;
  /** Undefined when no candidate can run (the attempt fails with `no_candidate`). */
  candidate: { id: string; use: number } | undefined;
}

/**
 * The route of the attempt about to start, or undefined when the step does not choose (not an
 * agent, no candidates, or a config the executor will refuse as invalid).
 */
export async function routeAttempt(s: StepRuntime, step: Step, config: Record<string, unknown>, ctx: RunContext, circuits: CircuitBreakers, now: number): Promise<RoutedAttempt | undefined> {
  if (step.kind !== 'agent' || !Array.isArray(config['candidates'])) return undefined;
  const parsed = AgentConfig.safeParse(config);
  if (!parsed.success || parsed.data.candidates === undefined) return undefined;
  const { candidates, choose } = parsed.data;
  const wantedTags = choose?.matchTags === undefined ? undefined : await tagsOf(choose.matchTags, ctx);
  const decision = chooseRoute({
    candidates,
    choose,
    wantedTags,
    attempts: s.attempts.filter((a) => a.activation === s.activation),
    circuit: (c) => circuits.stateOf(c, choose?.circuit, now),
  });
  if (decision.chosen === undefined) return { route: decision.route, config, candidate: undefined };
  const { candidate, use } = decision.chosen;
  return { route: decision.route, config: withCandidate(config, candidate), candidate: { id: candidate.id, use } };
}

/** The step's config with the candidate's provider fields in place of its own (a field the candidate leaves out is not inherited). */
function withCandidate(config: Record<string, unknown>, c: AgentCandidate): Record<string, unknown> {
  const { provider: _p, model: _m, baseUrl: _b, apiKeyEnv: _k, mock: _x, ...rest } = config;
  return {
    ...rest,
    provider: c.provider,
    ...(c.model === undefined ? {} : { model: c.model }),
    ...(c.baseUrl === undefined ? {} : { baseUrl: c.baseUrl }),
    ...(c.apiKeyEnv === undefined ? {} : { apiKeyEnv: c.apiKeyEnv }),
    ...(c.mock === undefined ? {} : { mock: c.mock }),
  };
}

/** The wanted tags: a string or a list of strings; anything else (or an error) asks for none. */
async function tagsOf(expression: string, ctx: RunContext): Promise<string[]> {
  try {
    const v = await evaluate(expression, ctx);
    if (typeof v === 'string') return [v];
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** Why no candidate could run, as the attempt's failure: retryable while a circuit may close. */
export function noCandidateResult(route: AttemptRoute): { outcome: 'failed'; code: 'no_candidate'; message: string; retryable: boolean } {
  const waiting = route.candidates.some((c) => c.passedOver === 'circuit_open');
  return { outcome: 'failed', code: 'no_candidate', message: route.reason, retryable: waiting };
}

/**
 * Whether the output of a routed attempt is confident enough (`choose.confidence`): undefined when
 * it is, or when the rule has no confidence; else the `low_confidence` failure, retryable while
 * an untried candidate is left.
 */
export async function confidenceFailure(route: AttemptRoute, config: Record<string, unknown>, ctx: RunContext): Promise<{ code: 'low_confidence'; message: string; retryable: boolean } | undefined> {
  const parsed = AgentConfig.safeParse(config);
  const rule = parsed.success ? parsed.data.choose?.confidence : undefined;
  if (rule === undefined) return undefined;
  let value: unknown;
  try {
    value = await evaluate(rule.expression, ctx);
  } catch (e) {
    value = `an error (${(e as Error).message})`;
  }
  if (typeof value === 'number' && value >= rule.below) return undefined;
  const left = route.candidates.filter((c) => c.id !== route.chosen && c.passedOver !== 'low_confidence');
  const said = typeof value === 'number' ? `confidence ${value} is below ${rule.below}` : `confidence "${rule.expression}" gave ${typeof value === 'string' ? value : JSON.stringify(value) ?? 'nothing'}, not a number`;
  return {
    code: 'low_confidence',
    message: `${said} (${route.chosen ?? 'no candidate'}); ${left.length === 0 ? 'no other candidate is left' : `the next attempt goes to ${left[0]?.id ?? ''}`}`,
    retryable: left.length > 0,
  };
}

/** Feeds the circuit of the candidate an attempt ran on with how the attempt ended. */
export function recordCircuit(circuits: CircuitBreakers, route: AttemptRoute | undefined, outcome: 'succeeded' | 'failed' | 'unknown', code: string | undefined, now: number): void {
  const c = route?.candidates.find((x) => x.id === route.chosen);
  if (c === undefined) return;
  const provider = c.provider === 'openai' || c.provider === 'anthropic' ? c.provider : 'mock';
  circuits.record({ provider, ...(c.model === undefined ? {} : { model: c.model }), ...(c.baseUrl === undefined ? {} : { baseUrl: c.baseUrl }) }, circuitEffect(outcome, code), now);
}
