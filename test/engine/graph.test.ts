// Readiness, routing, joins, dead paths, loops, timers, recovery and forks on the real engine.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { forkPlan } from '../../engine/runtime/fork-plan.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { end, harness, types, until, wf, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

const t = (id: string, expression = 'input', extra: Record<string, unknown> = {}) => ({ id, kind: 'transform', config: { expression }, ...extra });
const outcome = (events: RunEvent[], step: string): string[] =>
  events.filter((e) => e.type === 'step_settled' && e.step === step).map((e) => (e.data as RunEvent<'step_settled'>['data']).outcome);
const amountInput = { input: { type: 'object', properties: { amount: { type: 'number' } } } };

describe('routing and dead paths', () => {
  const routed = wf('graph',
    [t('start'), { id: 'route', kind: 'router' }, t('small', '"small"'), t('large', '"large"'), { id: 'merge', kind: 'join', config: { mode: 'any' } }, t('after_small', '"after"'), end()],
    [
      { id: 'e1', from: 'start', to: 'route' },
      { id: 'to_small', from: 'route', to: 'small', when: 'output.amount < 100' },
      { id: 'to_large', from: 'route', to: 'large', default: true },
      { id: 'e4', from: 'small', to: 'after_small' },
      { id: 'e5', from: 'after_small', to: 'merge' },
      { id: 'e6', from: 'large', to: 'merge' },
      { id: 'e7', from: 'merge', to: 'done' },
    ],
    amountInput,
  );

  it.each([
    [5, 'small', 'large'],
    [500, 'large', 'small'],
  ])('amount %s takes %s and skips the other path', async (amount, taken, skipped) => {
    h = harness();
    const { runId } = h.start(routed, { amount });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(outcome(events, taken)).toEqual(['succeeded']);
    expect(outcome(events, skipped)).toEqual(['skipped']);
    const route = events.find((e) => e.type === 'step_settled' && e.step === 'route')?.data as RunEvent<'step_settled'>['data'];
    expect(route.edges.filter((e) => e.taken).map((e) => e.id)).toEqual([taken === 'small' ? 'to_small' : 'to_large']);
    if (taken === 'large') expect(outcome(events, 'after_small')).toEqual(['skipped']);
    expect(h.model(runId).view['merge']?.output).toEqual({ [taken === 'small' ? 'after_small' : 'large']: taken === 'small' ? 'after' : 'large' });
  });
});

describe('joins', () => {
  const fan = (mode: Record<string, unknown>, failB = false) => wf('graph',
    [
      t('start'),
      t('a', '"A"'),
      { id: 'b', kind: 'command', config: { argv: ['sh', '-c', failB ? 'exit 1' : 'echo \'"B"\''] } },
      t('c', '"C"'),
      { id: 'merge', kind: 'join', config: mode },
      t('report', 'steps.merge.output'),
      end(),
      end('failed_end', 'failed'),
    ],
    [
      { id: 'sa', from: 'start', to: 'a' }, { id: 'sb', from: 'start', to: 'b' }, { id: 'sc', from: 'start', to: 'c' },
      { id: 'am', from: 'a', to: 'merge' }, { id: 'bm', from: 'b', to: 'merge' }, { id: 'cm', from: 'c', to: 'merge' },
      { id: 'mr', from: 'merge', to: 'report' }, { id: 'rd', from: 'report', to: 'done' },
      { id: 'mf', from: 'merge', to: 'failed_end', on: 'failed' },
      { id: 'bf', from: 'b', to: 'failed_end', on: 'failed' },
    ],
  );

  it('an all join waits for every branch and hands on their outputs', async () => {
    h = harness();
    const { runId } = h.start(fan({ mode: 'all' }));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(h.model(runId).view['report']?.output).toEqual({ a: 'A', b: 'B', c: 'C' });
    expect(h.events(runId).filter((e) => e.type === 'step_activated' && e.step === 'merge')).toHaveLength(1);
  });

  it('an all join fails when a branch fails, unless failed branches are ignored', async () => {
    h = harness();
    const failing = h.start(fan({ mode: 'all' }, true)).runId;
    expect(await h.engine.settled(failing)).toBe('failed');
    expect(h.events(failing).find((e) => e.type === 'step_settled' && e.step === 'merge')?.reason).toMatch(/branch "b" did not arrive/);
    const ignoring = h.start({ ...fan({ mode: 'all', onFailedBranch: 'ignore' }, true), id: 'graph-ignore' }).runId;
    await h.engine.settled(ignoring);
    expect(outcome(h.events(ignoring), 'merge')).toEqual(['succeeded']);
  });

  it('a failed branch with no edge of its own is left to the join, which routes its own failure', async () => {
    h = harness();
    const flow = fan({ mode: 'all' }, true);
    flow.edges = (flow.edges as { id: string }[]).filter((e) => e.id !== 'bf');
    const { runId } = h.start({ ...flow, id: 'graph-join-fails' });
    expect(await h.engine.settled(runId)).toBe('failed');
    const events = h.events(runId);
    expect(outcome(events, 'merge')).toEqual(['failed']);
    expect(outcome(events, 'failed_end')).toEqual(['succeeded']);
    expect(events.at(-1)?.reason).toBe('reached end step "failed_end" (status failed)');
  });

  it('an atLeast join goes on after N branches and fails when N can no longer arrive', async () => {
    h = harness();
    const two = h.start(fan({ mode: 'atLeast', count: 2 }, true)).runId;
    await until(() => h?.events(two).some((e) => e.type === 'step_settled' && e.step === 'merge') === true, 'the join');
    expect(outcome(h.events(two), 'merge')).toEqual(['succeeded']);
    const three = h.start({ ...fan({ mode: 'atLeast', count: 3 }, true), id: 'graph-three' }).runId;
    expect(await h.engine.settled(three)).toBe('failed');
    expect(outcome(h.events(three), 'merge')).toEqual(['failed']);
  });
});

describe('loops', () => {
  it('runs a loop body again per traversal and stops at maxTraversals', async () => {
    h = harness();
    const { runId } = h.start(wf('graph',
      [
        t('start'),
        { id: 'attempt', kind: 'command', config: { argv: ['sh', '-c', 'n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; echo "{\\"n\\": $n}"'] }, output: { type: 'object', properties: { n: { type: 'integer' } } } },
        end(),
        end('gave_up', 'failed'),
      ],
      [
        { id: 'e1', from: 'start', to: 'attempt' },
        { id: 'again', from: 'attempt', to: 'attempt', when: 'output.n < 10', maxTraversals: 2 },
        { id: 'enough', from: 'attempt', to: 'done', when: 'output.n >= 3' },
        { id: 'early', from: 'attempt', to: 'gave_up', when: 'output.n < 0' },
      ],
    ));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(events.filter((e) => e.type === 'step_activated' && e.step === 'attempt').map((e) => e.activation)).toEqual([1, 2, 3]);
    const last = events.filter((e) => e.type === 'step_settled' && e.step === 'attempt').at(-1)?.data as RunEvent<'step_settled'>['data'];
    expect(last.edges.find((e) => e.id === 'again')).toEqual({ id: 'again', taken: false, why: 'maxTraversals (2) reached' });
    expect(outcome(events, 'done')).toEqual(['skipped', 'skipped', 'succeeded']);
    expect(h.model(runId).view['attempt']?.output).toEqual({ n: 3 });
  });
});

describe('timers and recovery', () => {
  it('keeps a wait step durable across a restart and fires an overdue timer at once', async () => {
    h = harness();
    const { runId } = h.start(wf('graph', [t('start'), { id: 'pause', kind: 'wait', config: { durationMs: 300 } }, end()], [{ id: 'e1', from: 'start', to: 'pause' }, { id: 'e2', from: 'pause', to: 'done' }]));
    expect(await h.engine.settled(runId)).toBe('waiting');
    const engine = h.restart();
    // Recover only once the timer is overdue (the engine's clock is the system clock).
    const timer = h.events(runId).find((e) => e.type === 'timer_set')?.data as RunEvent<'timer_set'>['data'];
    await until(() => Date.now() > timer.dueAt, `the wait's timer (due ${timer.dueAt}) to be overdue`);
    expect(engine.recover().runs).toBe(1);
    expect(await engine.settled(runId)).toBe('succeeded');
    const after = types(h.events(runId));
    // Nothing was interrupted (the step was only waiting), so no engine_resumed: the timer just fires.
    expect(after).not.toContain('engine_resumed');
    expect(after.slice(after.indexOf('timer_fired'), after.indexOf('timer_fired') + 3)).toEqual(['timer_fired', 'attempt_succeeded', 'step_settled']);
  });

  it('runs an interrupted idempotent attempt again and marks an interrupted external attempt unknown', async () => {
    h = harness();
    const { runId } = h.start(wf('graph',
      [
        { id: 'copy', kind: 'command', effect: 'idempotent', config: { argv: ['sh', '-c', 'if [ -f copied ]; then echo \'"copied"\'; else touch copied; sleep 30; fi'] } },
        { id: 'mail', kind: 'command', effect: 'external', config: { argv: ['sleep', '30'] } },
        { id: 'both', kind: 'join', config: { mode: 'all', onFailedBranch: 'ignore' } },
        end(),
        end('failed_end', 'failed'),
      ],
      [
        { id: 'c', from: 'copy', to: 'both' },
        { id: 'm', from: 'mail', to: 'both', on: ['succeeded', 'unknown'] },
        { id: 'd', from: 'both', to: 'done' },
        { id: 'cf', from: 'copy', to: 'failed_end', on: 'failed' },
        { id: 'mf', from: 'mail', to: 'failed_end', on: 'failed' },
        { id: 'bf', from: 'both', to: 'failed_end', on: 'failed' },
      ],
    ));
    await until(() => h?.store.readEvents(runId).filter((e) => e.type === 'attempt_started').length === 2, 'both attempts to start');
    // The first copy attempt has done its work (the marker exists) and now hangs: a stop interrupts it.
    await until(() => existsSync(join(h?.dir ?? '', 'copied')), 'the first copy attempt to reach its side effect');
    const engine = h.restart();
    expect(engine.recover()).toEqual({ runs: 1, interrupted: 2 });
    expect(await engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(types(events, 'copy').filter((x) => x.startsWith('attempt'))).toEqual(['attempt_started', 'attempt_failed', 'attempt_started', 'attempt_succeeded']);
    expect((events.find((e) => e.type === 'attempt_failed' && e.step === 'copy')?.data as RunEvent<'attempt_failed'>['data']).error.code).toBe('interrupted');
    expect(types(events, 'mail').filter((x) => x.startsWith('attempt'))).toEqual(['attempt_started', 'attempt_unknown']);
    expect(events.find((e) => e.type === 'attempt_unknown')?.reason).toMatch(/engine stopped during this attempt/);
  });

  it('an agent attempt run again after a restart gets the reply and config of the one it replaces, not those of the next retry', async () => {
    h = harness();
    const good = { decision: 'refund', confidence: 0.9 };
    const { runId } = h.start(wf('graph',
      [
        {
          id: 'propose', kind: 'agent',
          config: { provider: 'mock', model: 'small', prompt: 'Decide.', responseFormat: 'json', temperature: 0.7, mock: { replies: [{ text: 'Sure, a refund!', delayMs: 400 }, { output: good }] } },
          output: { type: 'object', required: ['decision', 'confidence'] },
          retry: { maxAttempts: 3, initialIntervalMs: 10, variants: [{ temperature: 0.1 }] },
        },
        end(),
      ],
      [{ id: 'p', from: 'propose', to: 'done' }],
    ));
    await until(() => h?.store.readEvents(runId).some((e) => e.type === 'attempt_started') === true, 'the first call to start');
    const engine = h.restart();
    engine.recover();
    expect(await engine.settled(runId)).toBe('succeeded');
    const attempts = h.model(runId).steps.get('propose')?.attempts ?? [];
    // 1: interrupted; 2: its rerun, same config (no variant) and the same prose reply, which fails;
    // 3: the first real retry, variant 1, the second reply.
    expect(attempts.map((a) => [a.number, a.variant, a.error?.code ?? a.state])).toEqual([
      [1, null, 'interrupted'],
      [2, null, 'invalid_json_reply'],
      [3, 0, 'succeeded'],
    ]);
  });
});

describe('fork', () => {
  it('reuses the evidence of steps before STEP and runs STEP and what follows again', async () => {
    h = harness();
    const flow = wf('graph',
      [t('fetch', '{"price": input.amount}'), t('tax', 'steps.fetch.output.price * 0.2'), t('total', 'steps.fetch.output.price + steps.tax.output'), end()],
      [{ id: 'e1', from: 'fetch', to: 'tax' }, { id: 'e2', from: 'tax', to: 'total' }, { id: 'e3', from: 'total', to: 'done' }],
      amountInput,
    );
    const { runId, workflow } = h.start(flow, { amount: 100 });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const plan = forkPlan(foldRun(h.store, runId), 'tax');
    expect(plan.evidence.map((e) => e.stepId)).toEqual(['fetch']);
    const forked = h.engine.startRun({ workflow, definitionHash: 'x', input: { amount: 100 }, workspaceDir: h.dir, forkOf: { runId, fromStep: 'tax' }, importEvidence: plan.evidence });
    expect(await h.engine.settled(forked)).toBe('succeeded');
    const events = h.events(forked);
    expect(types(events, 'fetch')).toEqual(['evidence_imported', 'step_activated', 'evidence_reused', 'step_settled']);
    expect(types(events, 'tax')).toContain('attempt_succeeded');
    expect(h.model(forked).view['total']?.output).toBe(120);
  });
});
