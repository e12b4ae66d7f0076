// The circuits of agent providers (engine/runtime/circuit-breakers.ts) as a table of moments:
// failures in a row open a circuit by the judging step's rule, the cool-down turns it half-open,
// a failure then opens it again and a reply closes it; what does not reach the provider counts
// for nothing, and each provider and server has its own circuit.
import { describe, expect, it } from 'vitest';
import { CircuitBreakers, circuitEffect, circuitKey } from '../../engine/runtime/circuit-breakers.ts';

const openai = { provider: 'openai' as const, model: 'gpt-4o-mini' };
const local = { provider: 'openai' as const, model: 'llama', baseUrl: 'http://127.0.0.1:11434/v1' };
const rule = { failures: 2, coolDownMs: 1000 };

describe('circuit breakers', () => {
  it('opens after N failures in a row, is half-open after the cool-down, reopens on a failure and closes on a reply', () => {
    const c = new CircuitBreakers();
    expect(c.stateOf(openai, rule, 0).state).toBe('closed');
    c.record(openai, 'failure', 10);
    expect(c.stateOf(openai, rule, 20)).toEqual({ state: 'closed', failures: 1, until: null });
    c.record(openai, 'failure', 30);
    expect(c.stateOf(openai, rule, 40)).toEqual({ state: 'open', failures: 2, until: 1030 });
    expect(c.stateOf(openai, rule, 1029).state).toBe('open');
    expect(c.stateOf(openai, rule, 1030).state).toBe('half_open');
    c.record(openai, 'failure', 1100);
    expect(c.stateOf(openai, rule, 1101)).toEqual({ state: 'open', failures: 3, until: 2100 });
    c.record(openai, 'reply', 2200);
    expect(c.stateOf(openai, rule, 2201)).toEqual({ state: 'closed', failures: 0, until: null });
    expect(c.snapshot(2201).circuits).toEqual([
      { key: 'openai https://api.openai.com/v1', provider: 'openai', baseUrl: 'https://api.openai.com/v1', state: 'closed', failures: 0, lastFailureAtMs: 1100, reopensAtMs: null, rule, opened: 2 },
    ]);
  });

  it('is closed for a step without a rule, whatever the failures', () => {
    const c = new CircuitBreakers();
    for (let i = 0; i < 5; i++) c.record(openai, 'failure', i);
    expect(c.stateOf(openai, undefined, 5).state).toBe('closed');
    expect(c.stateOf(openai, { failures: 5, coolDownMs: 10 }, 5).state).toBe('open');
  });

  it('keeps one circuit per provider and server, and one per model of the mock provider', () => {
    expect(circuitKey(openai)).toBe('openai https://api.openai.com/v1');
    expect(circuitKey(local)).toBe('openai http://127.0.0.1:11434/v1');
    expect(circuitKey({ provider: 'anthropic', model: 'claude' })).toBe('anthropic https://api.anthropic.com');
    expect(circuitKey({ provider: 'mock' })).toBe('mock model mock');
    const c = new CircuitBreakers();
    c.record(local, 'failure', 0);
    c.record(local, 'failure', 0);
    expect(c.stateOf(local, rule, 1).state).toBe('open');
    expect(c.stateOf(openai, rule, 1).state).toBe('closed');
  });

  it.each([
    ['succeeded', undefined, 'reply'],
    ['failed', 'provider_unavailable', 'failure'],
    ['failed', 'rate_limited', 'failure'],
    ['failed', 'connection_failed', 'failure'],
    ['failed', 'timeout', 'failure'],
    ['failed', 'low_confidence', 'reply'],
    ['failed', 'invalid_json_reply', 'reply'],
    ['failed', 'missing_api_key', 'none'],
    ['failed', 'interrupted', 'none'],
    ['unknown', undefined, 'none'],
  ] as const)('an attempt that %s (%s) counts as %s', (outcome, code, effect) => {
    expect(circuitEffect(outcome, code)).toBe(effect);
  });
});
