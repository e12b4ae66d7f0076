// The choice of an agent attempt's candidate (engine/runtime/route-choice.ts) on plain data: the
// order (listed, cheapest, a wanted tag first), what is passed over and why, a trial call through
// a half-open circuit, and no candidate left (with whether that is worth a retry).
import { describe, expect, it } from 'vitest';
import type { AgentCandidate } from '../../shared/definition/agent-route.ts';
import type { AttemptRecord } from '../../shared/run/run-model.ts';
import { chooseRoute, type RouteFacts } from '../../engine/runtime/route-choice.ts';
import { noCandidateResult } from '../../engine/runtime/attempt-route.ts';

const a: AgentCandidate = { id: 'a', provider: 'openai', model: 'm-a', cost: 5, tags: ['general'] };
const b: AgentCandidate = { id: 'b', provider: 'openai', model: 'm-b', cost: 1 };
const c: AgentCandidate = { id: 'c', provider: 'anthropic', model: 'm-c', tags: ['legal'] };
const closed = () => ({ state: 'closed' as const, failures: 0, until: null });

/** An attempt of the activation that ran on `chosen` and ended with `code`. */
const tried = (number: number, chosen: string, code: string): AttemptRecord => ({
  activation: 1, number, state: 'failed', startedAt: 0, endedAt: 1, inputHash: 'h', input: null, variant: null, effect: 'none',
  idempotencyKey: undefined, timeoutMs: undefined, error: { code, message: `${code} of ${chosen}` } as AttemptRecord['error'], evidenceId: null,
  retryAfterMs: undefined, output: undefined, meta: undefined, queuedAt: null,
  route: { candidates: [], chosen, reason: '', order: 'listed' },
});

const facts = (over: Partial<RouteFacts>): RouteFacts => ({ candidates: [a, b, c], choose: undefined, wantedTags: undefined, attempts: [], circuit: closed, ...over });
const statuses = (f: RouteFacts) => chooseRoute(f).route.candidates.map((x) => `${x.id}:${x.passedOver ?? 'chosen'}`);

describe('chooseRoute', () => {
  it.each([
    ['listed order', facts({}), ['a:chosen', 'b:later', 'c:later']],
    ['cheapest first, a candidate without a cost last', facts({ choose: { order: 'cheapest' } }), ['b:chosen', 'a:later', 'c:later']],
    ['a wanted tag first, the others fallbacks', facts({ choose: { order: 'cheapest' }, wantedTags: ['legal'] }), ['c:chosen', 'b:tags_unmatched', 'a:tags_unmatched']],
    ['no candidate has the wanted tag: the order is kept', facts({ wantedTags: ['tax'] }), ['a:chosen', 'b:later', 'c:later']],
    ['one tried with too low a confidence is passed over', facts({ attempts: [tried(1, 'a', 'low_confidence')] }), ['a:low_confidence', 'b:chosen', 'c:later']],
    ['one that failed otherwise is chosen again', facts({ attempts: [tried(1, 'a', 'rate_limited')] }), ['a:chosen', 'b:later', 'c:later']],
    ['an open circuit is passed over', facts({ circuit: (x) => (x.id === 'a' ? { state: 'open', failures: 3, until: 60_000 } : closed()) }), ['a:circuit_open', 'b:chosen', 'c:later']],
  ] as const)('%s', (_what, f, want) => {
    expect(statuses(f)).toEqual(want);
  });

  it('counts the uses of the chosen candidate in the activation (its mock reply), an interrupted one not', () => {
    const attempts = [tried(1, 'a', 'rate_limited'), tried(2, 'a', 'interrupted'), tried(3, 'a', 'timeout')];
    expect(chooseRoute(facts({ attempts })).chosen).toEqual({ candidate: a, use: 3 });
  });

  it('says a half-open circuit makes a trial call', () => {
    const r = chooseRoute(facts({ circuit: () => ({ state: 'half_open', failures: 3, until: 10 }) }));
    expect(r.route.reason).toBe('a: the first in the listed order; its circuit is half-open: a trial call after the cool-down');
  });

  it('chooses none when every candidate is passed over: a retry is worth it only while a circuit may close', () => {
    const attempts = [tried(1, 'a', 'low_confidence'), tried(2, 'b', 'low_confidence')];
    const open = chooseRoute(facts({ attempts, circuit: (x) => (x.id === 'c' ? { state: 'open', failures: 2, until: 5 } : closed()) }));
    expect(open.chosen).toBeUndefined();
    expect(open.route).toMatchObject({ chosen: null, reason: 'no candidate can run: a (confidence too low), b (confidence too low), c (circuit open)' });
    expect(noCandidateResult(open.route)).toMatchObject({ code: 'no_candidate', retryable: true });
    const spent = chooseRoute(facts({ attempts: [...attempts, tried(3, 'c', 'low_confidence')] }));
    expect(noCandidateResult(spent.route)).toMatchObject({ code: 'no_candidate', retryable: false });
  });
});
