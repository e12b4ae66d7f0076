// The supervisor's pure decisions: how long to wait before a restart, and which address line is
// our engine's.
import { expect, it } from 'vitest';
import { restartPlan } from '../../electron/main/restart-backoff.ts';
import { parseEndpointLine } from '../../electron/main/engine-endpoint.ts';
import { scrubToken } from '../../electron/main/engine-token.ts';

const T = 'A'.repeat(43);

it.each([
  { deaths: [1_000], now: 1_000, delayMs: 100, backs: false },
  { deaths: [1_000, 2_000, 3_000, 4_000], now: 4_000, delayMs: 100, backs: false },
  { deaths: [1_000, 2_000, 3_000, 4_000, 5_000], now: 5_000, delayMs: 1_000, backs: true },
  { deaths: [1_000, 2_000, 3_000, 4_000, 5_000, 6_000], now: 6_000, delayMs: 2_000, backs: true },
  { deaths: Array.from({ length: 20 }, (_, i) => i * 100), now: 2_000, delayMs: 30_000, backs: true },
  // Deaths older than 30 s no longer count: an engine that died now and then is restarted at once.
  { deaths: [0, 1_000, 2_000, 3_000, 40_000], now: 40_000, delayMs: 100, backs: false },
])('deaths $deaths at $now -> wait $delayMs ms', ({ deaths, now, delayMs, backs }) => {
  const plan = restartPlan(deaths, now, 100);
  expect(plan.delayMs).toBe(delayMs);
  expect(plan.reason !== undefined).toBe(backs);
});

it('says why it backs off', () => {
  expect(restartPlan([1, 2, 3, 4, 5, 6, 7], 7, 100).reason).toBe('the engine died 7 times within 30 s, so the next restart waits 4 s');
});

it.each([
  { line: `Weft Studio: http://127.0.0.1:4321/#token=${T}`, want: { url: 'http://127.0.0.1:4321', port: 4321 } },
  { line: `Weft Studio: http://127.0.0.1:4321/#token=${T}\r`, want: { url: 'http://127.0.0.1:4321', port: 4321 } },
  { line: `Weft Studio: http://127.0.0.1:4321/#token=${'B'.repeat(43)}`, want: undefined },
  { line: `Weft Studio: http://0.0.0.0:4321/#token=${T}`, want: undefined },
  { line: `note: Weft Studio: http://127.0.0.1:4321/#token=${T}`, want: undefined },
  { line: 'weft serve: the store is locked', want: undefined },
])('parseEndpointLine($line)', ({ line, want }) => {
  expect(parseEndpointLine(line, T)).toEqual(want);
});

it('scrubs every copy of the token', () => {
  expect(scrubToken(`a ${T} b ${T}`, T)).toBe('a [token] b [token]');
});
