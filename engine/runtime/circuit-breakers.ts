// Circuits per provider (docs/routing.md "Circuits"): one engine counts each provider's
// consecutive failures (unavailable, connection, rate limit, timeout) across all the runs it
// schedules. A step whose rule has `choose.circuit: { failures: N, coolDownMs: C }` sees the
// provider's circuit open once N failures follow each other, until C ms of the engine's clock
// (virtual time in scenarios) after the last one; then half-open: the next attempt may try it.
// A reply of any kind closes it. Circuits live in the engine's memory: a restarted engine starts
// with every circuit closed, and the first failures open them again (see the docs for why).
import type { AgentCandidate } from '../../shared/definition/agent-route.ts';
import { CIRCUIT_FAILURE_CODES } from '../../shared/definition/agent-route.ts';
import type { CircuitState } from '../../shared/events/attempt-route.ts';
import type { CircuitView, ProviderCircuits } from '../../shared/api/provider-circuits.ts';
import { ANTHROPIC_BASE_URL } from '../executors/agent/anthropic-provider.ts';
import { OPENAI_BASE_URL } from '../executors/agent/openai-provider.ts';

/** What opens a circuit, from a step's `choose.circuit`. */
export interface CircuitRule {
  failures: number;
  coolDownMs: number;
}

interface Circuit {
  provider: string;
  baseUrl: string | null;
  /** Consecutive failures since the last reply. */
  failures: number;
  lastFailureAt: number | null;
  /** The rule a step last judged this circuit by (for the app's panel). */
  rule: CircuitRule | null;
  /** How often it has opened since the engine started. */
  opened: number;
}

/**
 * The circuit a candidate's calls go through: its provider and server. Mock candidates have no
 * server; each model name of the mock provider has its own circuit, so tests can tell them apart.
 *
 * @example circuitKey({ id: 'a', provider: 'openai', model: 'gpt-4o-mini' }) // 'openai https://api.openai.com/v1'
 */
export function circuitKey(c: Pick<AgentCandidate, 'provider' | 'model' | 'baseUrl'>): string {
  return `${c.provider} ${serverOf(c) ?? `model ${c.model ?? 'mock'}`}`;
}

function serverOf(c: Pick<AgentCandidate, 'provider' | 'baseUrl'>): string | null {
  if (c.provider === 'mock') return null;
  return c.baseUrl ?? (c.provider === 'openai' ? OPENAI_BASE_URL : ANTHROPIC_BASE_URL);
}

/** How an attempt's end bears on its provider's circuit. */
export function circuitEffect(outcome: 'succeeded' | 'failed' | 'unknown', code: string | undefined): 'failure' | 'reply' | 'none' {
  if (outcome === 'succeeded') return 'reply';
  if (outcome === 'unknown' || code === undefined) return 'none';
  if ((CIRCUIT_FAILURE_CODES as readonly string[]).includes(code)) return 'failure';
  // A reply came, even if it was not good enough: the provider is up.
  return REPLY_CODES.has(code) ? 'reply' : 'none';
}

const REPLY_CODES = new Set(['invalid_output', 'acceptance_not_met', 'low_confidence', 'invalid_json_reply', 'malformed_reply', 'model_refused', 'bad_request']);

export class CircuitBreakers {
  private readonly circuits = new Map<string, Circuit>();

  /**
   * The state of a candidate's circuit at `now` by `rule` (closed when the rule has none). A
   * circuit is kept from the first time a candidate of its provider is considered, with the rule
   * it was judged by, so the app lists every provider in use.
   */
  stateOf(c: Pick<AgentCandidate, 'provider' | 'model' | 'baseUrl'>, rule: CircuitRule | undefined, now: number): { state: CircuitState; failures: number; until: number | null } {
    const circuit = this.circuitOf(c);
    if (rule !== undefined) circuit.rule = rule;
    return judge(circuit, rule, now);
  }

  /** Records how an attempt on a candidate ended. */
  record(c: Pick<AgentCandidate, 'provider' | 'model' | 'baseUrl'>, effect: 'failure' | 'reply' | 'none', now: number): void {
    if (effect === 'none') return;
    const circuit = this.circuitOf(c);
    if (effect === 'reply') {
      circuit.failures = 0;
      return;
    }
    const before = judge(circuit, circuit.rule ?? undefined, now).state;
    circuit.failures += 1;
    circuit.lastFailureAt = now;
    if (before !== 'open' && judge(circuit, circuit.rule ?? undefined, now).state === 'open') circuit.opened += 1;
  }

  private circuitOf(c: Pick<AgentCandidate, 'provider' | 'model' | 'baseUrl'>): Circuit {
    const key = circuitKey(c);
    const found = this.circuits.get(key);
    if (found !== undefined) return found;
    const made: Circuit = { provider: c.provider, baseUrl: serverOf(c), failures: 0, lastFailureAt: null, rule: null, opened: 0 };
    this.circuits.set(key, made);
    return made;
  }

  /** Every circuit this engine has seen, at `now`, as GET /api/providers/circuits answers. */
  snapshot(now: number): ProviderCircuits {
    return { atMs: now, circuits: this.views(now) };
  }

  private views(now: number): CircuitView[] {
    return [...this.circuits].map(([key, c]) => {
      const { state, until } = judge(c, c.rule ?? undefined, now);
      return {
        key,
        provider: c.provider,
        baseUrl: c.baseUrl,
        state,
        failures: c.failures,
        lastFailureAtMs: c.lastFailureAt,
        reopensAtMs: state === 'open' ? until : null,
        rule: c.rule,
        opened: c.opened,
      };
    }).sort((a, b) => a.key.localeCompare(b.key));
  }
}

function judge(c: Circuit | undefined, rule: CircuitRule | undefined, now: number): { state: CircuitState; failures: number; until: number | null } {
  if (c === undefined) return { state: 'closed', failures: 0, until: null };
  if (rule === undefined || c.failures < rule.failures || c.lastFailureAt === null) return { state: 'closed', failures: c.failures, until: null };
  const until = c.lastFailureAt + rule.coolDownMs;
  return now < until ? { state: 'open', failures: c.failures, until } : { state: 'half_open', failures: c.failures, until };
}
