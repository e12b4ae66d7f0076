// Attempt planning alone: whether a ready step starts now and how its attempt runs, where its
// input and idempotency key come from, and which config variant a retry uses.
import { describe, expect, it } from 'vitest';
import { attemptConfig, inputSource, keySource, planAttempt } from '../../../engine/runtime/attempt-plan.ts';
import { end } from '../harness.ts';
import { attempt, plainRun } from './plain-run.ts';

const flow = () => plainRun(
  [
    { id: 'call', kind: 'command', config: { argv: ['a'] }, input: '{ "n": input.n }', idempotencyKey: '"k-" & run.id', resource: 'cpu', retry: { maxAttempts: 3, variants: [{ argv: ['b'] }] } },
    { id: 'calc', kind: 'transform', config: { expression: '1' } },
    { id: 'ask', kind: 'human', config: { task: 'approve', title: 'ok?' }, deadlineMs: 60000 },
    { id: 'nap', kind: 'wait', config: { durationMs: 5 } },
    end(),
  ],
  [{ id: 'a', from: 'call', to: 'calc' }, { id: 'b', from: 'calc', to: 'ask' }, { id: 'c', from: 'ask', to: 'nap' }, { id: 'd', from: 'nap', to: 'done' }],
  { limits: { concurrency: { cpu: 1 } } },
);

describe('planAttempt', () => {
  const free = { draining: false, slotFree: true, handled: false };

  it('starts the next attempt of an executor step, with its effect', () => {
    const p = flow();
    expect(planAttempt(p.s('call'), p.step('call'), free)).toEqual({ kind: 'start', number: 1, effect: 'none', route: 'executor' });
    Object.assign(p.s('call'), { activation: 1, attempts: [attempt({ number: 1 })] });
    expect(planAttempt(p.s('call'), p.step('call'), free)).toMatchObject({ number: 2 });
  });

  it('holds work that runs outside the engine while draining, and queues it for a full pool', () => {
    const p = flow();
    expect(planAttempt(p.s('call'), p.step('call'), { ...free, draining: true })).toEqual({ kind: 'hold' });
    expect(planAttempt(p.s('call'), p.step('call'), { ...free, slotFree: false })).toEqual({ kind: 'queue' });
  });

  it('runs pure steps inline and waiting kinds through their handler, drain or not', () => {
    const p = flow();
    const busy = { draining: true, slotFree: false, handled: true };
    expect(planAttempt(p.s('calc'), p.step('calc'), busy)).toMatchObject({ kind: 'start', route: 'inline' });
    expect(planAttempt(p.s('ask'), p.step('ask'), busy)).toMatchObject({ kind: 'start', route: 'handler' });
    expect(planAttempt(p.s('nap'), p.step('nap'), busy)).toMatchObject({ kind: 'start', route: 'handler' });
  });
});

describe('attempt input, key and config', () => {
  it('takes an operator-given input first, then the step expression, else the run input', () => {
    const p = flow();
    expect(inputSource(p.s('call'), p.step('call'))).toEqual({ kind: 'expression', expression: '{ "n": input.n }' });
    expect(inputSource(p.s('calc'), p.step('calc'))).toEqual({ kind: 'run_input' });
    p.s('call').inputOverride = { value: { n: 2 } };
    expect(inputSource(p.s('call'), p.step('call'))).toEqual({ kind: 'value', value: { n: 2 } });
  });

  it('evaluates the idempotency key once per activation and gives it to every later attempt', () => {
    const p = flow();
    expect(keySource(p.s('call'), p.step('call'), 1)).toEqual({ kind: 'expression', expression: '"k-" & run.id' });
    Object.assign(p.s('call'), { activation: 1, attempts: [attempt({ number: 1, idempotencyKey: 'k-r1' })] });
    expect(keySource(p.s('call'), p.step('call'), 2)).toEqual({ kind: 'value', value: 'k-r1' });
  });

  it('gives a retry its variant, and a rerun after a restart the config of the attempt it repeats', () => {
    const p = flow();
    const s = p.s('call');
    s.activation = 1;
    expect(attemptConfig(s, p.step('call'))).toEqual({ counted: 1, config: { argv: ['a'] }, variant: null });
    s.attempts.push(attempt({ number: 1, error: { code: 'exit_1', message: '' } }));
    expect(attemptConfig(s, p.step('call'))).toEqual({ counted: 2, config: { argv: ['b'] }, variant: 0 });
    s.attempts[0] = attempt({ number: 1, error: { code: 'interrupted', message: '' } });
    expect(attemptConfig(s, p.step('call'))).toEqual({ counted: 1, config: { argv: ['a'] }, variant: null });
  });
});
