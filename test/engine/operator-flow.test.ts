// Operator control, compensation and flow control on the real engine, from the event log.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { end, harness, until, parseWorkflow, types, wf, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

const cmd = (id: string, sh: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'command', config: { argv: ['sh', '-c', sh] }, ...extra });

describe('operator control', () => {
  const flaky = wf('flaky', [cmd('check', 'exit 1', { onExhausted: 'escalate' }), { id: 'after', kind: 'transform', config: { expression: 'steps.check.output' } }, end()], [
    { id: 'a', from: 'check', to: 'after' },
    { id: 'b', from: 'after', to: 'done' },
  ]);

  it('skips a failed step with an output a person gives, and refuses what the state does not permit', async () => {
    h = harness();
    const { runId } = h.start(flaky);
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    const before = h.events(runId).length;
    await expect(h.engine.resolveStep(runId, 'check', 'succeeded', 'ops', 'x')).rejects.toThrow(/cannot resolve step "check": it is failed \(resolve works on unknown steps\)/);
    await expect(h.engine.skipStep(runId, 'nope', {}, 'ops', 'x')).rejects.toThrow(/has no step "nope"/);
    expect(h.events(runId).length).toBe(before);
    await h.engine.skipStep(runId, 'check', { ok: true }, 'ops', 'checked by hand');
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(h.model(runId).view['after']?.output).toEqual({ ok: true });
    const action = h.events(runId).find((e) => e.type === 'operator_action');
    expect(action?.data).toMatchObject({ action: 'skip', by: 'ops' });
    expect(action?.reason).toBe('skipped by ops with a given output: checked by hand');
    await expect(h.engine.cancelRun(runId, 'ops', 'x')).rejects.toThrow(/cannot cancel run .*: it is succeeded/);
    // A finished run loaded only to refuse an action is not kept in memory (a long-lived engine would grow).
    const probe = new Engine({ store: h.store, clock: systemClock, random: systemRandom, executors: {} });
    await expect(probe.cancelRun(runId, 'ops', 'x')).rejects.toThrow(/it is succeeded/);
    await expect(probe.decideTask(runId, 'check', { decision: 'approved', by: 'ops' })).rejects.toThrow(/not waiting for a person/);
    expect(probe.model(runId)).toBeUndefined();
    probe.close();
  });

  it('retries a failed step with a new input', async () => {
    h = harness();
    const flow = wf('retry-me', [
      { id: 'check', kind: 'command', input: '{"n": 1}', config: { argv: ['sh', '-c', 'read l; case "$l" in *2*) echo "$l";; *) exit 1;; esac'] }, onExhausted: 'escalate' },
      end(),
    ], [{ id: 'a', from: 'check', to: 'done' }]);
    const { runId } = h.start(flow);
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    await h.engine.retryStep(runId, 'check', 'ops', 'fixed the input', { value: { n: 2 } });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const starts = h.events(runId).filter((e) => e.type === 'attempt_started' && e.step === 'check').map((e) => (e.data as RunEvent<'attempt_started'>['data']).input);
    expect(starts).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('resolves an unknown outcome as succeeded with evidence', async () => {
    h = harness();
    const flow = wf('resolve-me', [cmd('send', 'sleep 20', { effect: 'external', timeoutMs: 150, onExhausted: 'escalate' }), { id: 'note', kind: 'transform', config: { expression: 'steps.send.output.ref' } }, end()], [
      { id: 'a', from: 'send', to: 'note' },
      { id: 'b', from: 'note', to: 'done' },
    ]);
    const { runId } = h.start(flow);
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    await h.engine.resolveStep(runId, 'send', 'succeeded', 'ops', 'found it in the mail log', { ref: 'M-1' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(h.model(runId).view['note']?.output).toBe('M-1');
  });

  it('pauses (nothing new starts), resumes, and cancels with an abort signal', async () => {
    h = harness();
    const flow = wf('slow', [cmd('one', 'sleep 0.3; echo 1'), cmd('two', 'echo 2'), cmd('three', 'sleep 30'), end()], [
      { id: 'a', from: 'one', to: 'two' },
      { id: 'b', from: 'two', to: 'three' },
      { id: 'c', from: 'three', to: 'done' },
    ]);
    const { runId } = h.start(flow);
    const store = h.store;
    // Paused while "one" runs: it may finish, but nothing new starts.
    await until(() => types(store.readEvents(runId), 'one').includes('attempt_started'), 'step one to start');
    await h.engine.pauseRun(runId, 'ops', 'deploy window');
    expect(await h.engine.settled(runId)).toBe('paused');
    const m = h.model(runId);
    expect(m.steps.get('one')?.state).toBe('succeeded');
    expect(m.steps.get('two')?.state).toBe('ready');
    await h.engine.unpauseRun(runId, 'ops', 'done');
    // Resumed: "two" runs and "three" (sleep 30) starts; the cancel then aborts it.
    await until(() => types(store.readEvents(runId), 'three').includes('attempt_started'), 'step three to start');
    await h.engine.cancelRun(runId, 'ops', 'not needed');
    expect(await h.engine.settled(runId)).toBe('cancelled');
    const events = h.events(runId);
    expect(types(events, 'two')).toContain('attempt_succeeded');
    expect(events.filter((e) => e.type === 'operator_action').map((e) => (e.data as RunEvent<'operator_action'>['data']).action)).toEqual(['pause', 'resume', 'cancel']);
  });

  it('records what became of the attempts a cancel aborts: a pure one is cancelled, an external one is unknown', async () => {
    h = harness();
    const flow = wf('parallel', [
      cmd('start', 'echo 1'),
      cmd('compute', 'sleep 30'),
      cmd('send', 'sleep 30', { effect: 'external', onExhausted: 'escalate' }),
      end(),
      end('sent'),
    ], [
      { id: 'a', from: 'start', to: 'compute' },
      { id: 'b', from: 'start', to: 'send' },
      { id: 'c', from: 'compute', to: 'done' },
      { id: 'd', from: 'send', to: 'sent', on: ['succeeded', 'unknown'] },
    ]);
    const { runId } = h.start(flow);
    await until(() => h?.store.readEvents(runId).filter((e) => e.type === 'attempt_started').length === 3, 'both branches to start');
    await h.engine.cancelRun(runId, 'ops', 'not needed');
    await until(() => h?.store.readEvents(runId).filter((e) => e.type === 'step_settled' && (e.step === 'compute' || e.step === 'send')).length === 2, 'the aborted attempts to be recorded');
    const m = h.model(runId);
    expect(m.state).toBe('cancelled');
    expect(m.steps.get('compute')).toMatchObject({ state: 'cancelled' });
    expect(m.steps.get('send')).toMatchObject({ state: 'unknown' });
    expect(m.steps.get('send')?.attempts[0]?.state).toBe('unknown');
    expect(m.steps.get('done')?.attempts).toEqual([]);
    expect(m.steps.get('sent')?.attempts).toEqual([]);
    const types2 = h.events(runId).map((e) => e.type);
    expect(types2.indexOf('run_state_changed')).toBeLessThan(types2.lastIndexOf('step_settled'));
  });
});

describe('compensation', () => {
  // The bookings must succeed: their timeouts are only a bound a busy machine never reaches.
  const saga = (failHotel: boolean, failUndo = false) =>
    wf('trip', [
      cmd('flight', 'echo flight >> booked; echo \'{"ref": "F1"}\'', { effect: 'external', compensation: 'cancel_flight', timeoutMs: 60_000 }),
      cmd('car', 'echo car >> booked; echo \'{"ref": "C1"}\'', { effect: 'external', compensation: 'cancel_car', timeoutMs: 60_000 }),
      cmd('hotel', failHotel ? 'exit 1' : 'echo \'{"ref": "H1"}\''),
      cmd('cancel_flight', 'echo cancel-flight >> booked; echo \'{}\''),
      cmd('cancel_car', failUndo ? 'exit 1' : 'echo cancel-car >> booked; echo \'{}\''),
      end(),
    ], [
      { id: 'a', from: 'flight', to: 'car' },
      { id: 'b', from: 'car', to: 'hotel' },
      { id: 'c', from: 'hotel', to: 'done' },
      { id: 'fu', from: 'flight', to: 'done', on: 'unknown' },
      { id: 'cu', from: 'car', to: 'done', on: 'unknown' },
    ]);

  it('runs compensations in reverse order of completion when the run fails', async () => {
    h = harness();
    const { runId } = h.start(saga(true));
    expect(await h.engine.settled(runId)).toBe('failed');
    const events = h.events(runId);
    expect((events.find((e) => e.type === 'compensation_started')?.data as RunEvent<'compensation_started'>['data']).order).toEqual(['car', 'flight']);
    expect(events.filter((e) => e.type === 'step_compensated').map((e) => e.step)).toEqual(['car', 'flight']);
    expect(h.model(runId).steps.get('car')?.state).toBe('compensated');
    expect(events.at(-1)?.reason).toMatch(/compensated car, flight$/);
  });

  it('leaves the run needing attention when a compensation fails, never silently failed', async () => {
    h = harness();
    const { runId } = h.start(saga(true, true));
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    expect(h.model(runId).steps.get('cancel_car')?.escalated).toBe(true);
  });

  it('does not compensate a run that succeeds', async () => {
    h = harness();
    const { runId } = h.start(saga(false));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(types(h.events(runId))).not.toContain('compensation_started');
  });
});

describe('flow control', () => {
  it('never runs more than 2 steps of a resource limited to 2, across 50 runs', async () => {
    h = harness();
    const flow = parseWorkflow(wf('pooled', [cmd('query', 'sleep 0.02; echo 1', { resource: 'db', effect: 'idempotent' }), end()], [{ id: 'a', from: 'query', to: 'done' }], { limits: { concurrency: { db: 2 } } }));
    const hash = h.store.saveDefinition(flow, Date.now());
    const ids = Array.from({ length: 50 }, () => h?.engine.startRun({ workflow: flow, definitionHash: hash, input: {}, workspaceDir: h.dir }) as string);
    for (const id of ids) expect(await h.engine.settled(id)).toBe('succeeded');
    // From the log: every attempt's [start, end] interval, then the most that overlap.
    const points: [number, number][] = [];
    for (const id of ids) {
      for (const e of h.events(id)) {
        if (e.step !== 'query') continue;
        if (e.type === 'attempt_started') points.push([e.at, 1]);
        if (e.type === 'attempt_succeeded' || e.type === 'attempt_failed') points.push([e.at, -1]);
      }
    }
    points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let now = 0;
    let most = 0;
    for (const [, d] of points) most = Math.max(most, (now += d));
    expect(points.length).toBe(100);
    expect(most).toBe(2);
  });
});

describe('reopening a failed run', () => {
  // The README's promise: retry and skip work on failed runs. A run that failed because a step
  // failed with nothing to handle it is reopened by the operator's action and goes on.
  const once = (marker: string) => `if [ -f ${marker} ]; then echo '{"ok": true}'; else touch ${marker}; exit 1; fi`;

  it('a retried step of a failed run runs again, and the run goes on to its end', async () => {
    h = harness();
    const flow = wf('fails-once', [cmd('check', once(`${h.dir}/retry-marker`)), { id: 'after', kind: 'transform', config: { expression: 'steps.check.output' } }, end()], [
      { id: 'a', from: 'check', to: 'after' },
      { id: 'b', from: 'after', to: 'done' },
    ]);
    const { runId } = h.start(flow);
    expect(await h.engine.settled(runId)).toBe('failed');
    await h.engine.retryStep(runId, 'check', 'ops', 'the file is there now');
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(h.model(runId).view['after']?.output).toEqual({ ok: true });
    expect(h.events(runId).filter((e) => e.type === 'step_settled' && e.data.outcome === 'cancelled')).toEqual([]);
  });

  it('a skipped step of a failed run hands its output on, and the run goes on to its end', async () => {
    h = harness();
    const flow = wf('fails-always', [cmd('check', 'exit 1'), { id: 'after', kind: 'transform', config: { expression: 'steps.check.output' } }, end()], [
      { id: 'a', from: 'check', to: 'after' },
      { id: 'b', from: 'after', to: 'done' },
    ]);
    const { runId } = h.start(flow);
    expect(await h.engine.settled(runId)).toBe('failed');
    await h.engine.skipStep(runId, 'check', { ok: 'by hand' }, 'ops', 'checked by hand');
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(h.model(runId).view['after']?.output).toEqual({ ok: 'by hand' });
  });
});
