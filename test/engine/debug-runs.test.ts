// Debug runs in the real engine on a real SQLite store: breakpoints pause a run before a step
// starts (continue, step), pins settle a step with a given output without calling it (counted by
// a real HTTP server on 127.0.0.1), and both are in the log, so a restarted engine keeps them.
import { afterEach, describe, expect, it } from 'vitest';
import { runDetail } from '../../shared/run/run-detail.ts';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { checkDebug } from '../../engine/service/debug-settings.ts';
import { EngineService, checkStart } from '../../engine/service/engine-service.ts';
import { decideRevision } from '../../engine/runtime/revision-decision.ts';
import { StoreError } from '../../engine/store/store-error.ts';
import { ServiceError } from '../../engine/service/service-error.ts';
import { data, end, harness, parseWorkflow, types, until, wf, type Harness } from './harness.ts';
import { json, startServer, type TestServer } from './executors/http/http-test-server.ts';

let h: Harness | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  h?.close();
  h = undefined;
  await server?.close();
  server = undefined;
});

const hits = (path: string): number => (server?.received ?? []).filter((r) => r.url === path).length;

/** fetch (an API call) → summarize (a transform of its body) → notify (another call) → done. */
const workflow = parseWorkflow(wf('debug-flow', [
  {
    id: 'fetch',
    kind: 'http',
    config: { method: 'GET', url: '{{ input.base }}/fetch' },
    output: { type: 'object', required: ['status', 'body'], properties: { status: { type: 'integer' }, body: { type: 'object' } } },
    accept: 'output.status = 200',
  },
  { id: 'summarize', kind: 'transform', config: { expression: 'steps.fetch.output.body' } },
  { id: 'notify', kind: 'http', config: { method: 'POST', url: '{{ input.base }}/notify', body: 'steps.summarize.output' } },
  end(),
], [
  { id: 'e1', from: 'fetch', to: 'summarize' },
  { id: 'e2', from: 'summarize', to: 'notify' },
  { id: 'e3', from: 'notify', to: 'done' },
]));

async function setUp(): Promise<{ h: Harness; service: EngineService; start: (debug?: Parameters<typeof checkDebug>[1]) => string }> {
  server = await startServer((req, res) => json(res, 200, req.url === '/fetch' ? { value: 41 } : { ok: true }));
  const hh = harness();
  h = hh;
  hh.store.saveDefinition(workflow, Date.now());
  const service = new EngineService(hh.store, hh.engine, hh.dir);
  const base = server.base;
  const start = (debug?: Parameters<typeof checkDebug>[1]): string => {
    const checked = checkDebug(workflow, debug);
    return service.startChecked(checkStart(workflow, hh.dir, { base }), checked === undefined ? {} : { debug: checked }).runId;
  };
  return { h: hh, service, start };
}

const ENGINE_DEBUG_PINNED_FETCH = { status: 200, headers: {}, body: { value: 7 } };

describe('breakpoints', () => {
  it('pause the run before the step starts; continue starts it and the run goes on', async () => {
    const { h, service, start } = await setUp();
    const runId = start({ breakpoints: ['notify'] });
    expect(await h.engine.settled(runId)).toBe('paused');
    expect([hits('/fetch'), hits('/notify')]).toEqual([1, 0]);
    const events = h.events(runId);
    const hit = events.find((e) => e.type === 'breakpoint_hit');
    expect(hit).toMatchObject({ step: 'notify', activation: 1, data: { stepping: false }, reason: 'breakpoint at "notify"' });
    expect(events[events.length - 1]).toMatchObject({ type: 'run_state_changed', data: { state: 'paused' }, reason: 'breakpoint at "notify"' });
    const model = h.model(runId);
    expect(model.steps.get('notify')?.state).toBe('ready');
    expect(model.steps.get('notify')?.attempts).toEqual([]);
    const detail = runDetail(model);
    expect(detail.run.debug).toEqual({ breakpoints: ['notify'], pins: [], pausedAt: { step: 'notify', activation: 1 }, stepping: false });
    expect(detail.run.permittedActions.map((a) => a.action)).toEqual(['resume', 'cancel', 'revise', 'continue', 'step']);
    expect(detail.steps.find((s) => s.id === 'notify')?.next).toContain('paused at its breakpoint');

    await service.act(runId, { action: 'continue', by: 'ana', reason: 'looks right' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect([hits('/fetch'), hits('/notify')]).toEqual([1, 1]);
    const after = h.events(runId);
    expect(types(after).filter((t) => t === 'breakpoint_hit')).toHaveLength(1);
    expect(after.find((e) => e.type === 'debug_resumed')).toMatchObject({ step: 'notify', data: { mode: 'continue', by: 'ana' } });
    expect(runDetail(h.model(runId)).run.debug?.pausedAt).toBeNull();
  });

  it('step starts the paused step and pauses before the next one that starts', async () => {
    const { h, service, start } = await setUp();
    const runId = start({ breakpoints: ['fetch'] });
    expect(await h.engine.settled(runId)).toBe('paused');
    expect(hits('/fetch')).toBe(0); // paused before the first call

    await service.act(runId, { action: 'step' });
    expect(await h.engine.settled(runId)).toBe('paused');
    expect(hits('/fetch')).toBe(1);
    expect(restartRecord(h.model(runId)).run.debug).toMatchObject({ pausedAt: { step: 'summarize', activation: 1 }, stepping: false });

    await service.act(runId, { action: 'step' });
    expect(await h.engine.settled(runId)).toBe('paused');
    expect(h.model(runId).debug?.pausedAt).toEqual({ stepId: 'notify', activation: 1 });
    expect(hits('/notify')).toBe(0);

    await service.act(runId, { action: 'continue' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(hits('/notify')).toBe(1);
    const hitsAt = h.events(runId).filter((e) => e.type === 'breakpoint_hit').map((e) => [e.step, e.type === 'breakpoint_hit' && e.data.stepping]);
    expect(hitsAt).toEqual([['fetch', false], ['summarize', true], ['notify', true]]);
  });

  it('weft resume on a run paused at a breakpoint passes it, like continue', async () => {
    const { h, service, start } = await setUp();
    const runId = start({ breakpoints: ['summarize'] });
    expect(await h.engine.settled(runId)).toBe('paused');
    await service.resume(runId, { by: 'ana' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(types(h.events(runId)).filter((t) => t === 'breakpoint_hit')).toHaveLength(1);
  });

  it('continue and step are refused, with the reason, where there is no breakpoint to leave', async () => {
    const { h, service, start } = await setUp();
    const plain = start();
    expect(await h.engine.settled(plain)).toBe('succeeded');
    await expect(service.act(plain, { action: 'continue' })).rejects.toThrow(/it is not a debug run \(start one with weft run FILE --break STEP\)/);
    const debug = start({ pins: { fetch: ENGINE_DEBUG_PINNED_FETCH }, breakpoints: ['notify'] });
    expect(await h.engine.settled(debug)).toBe('paused');
    await service.act(debug, { action: 'continue' });
    expect(await h.engine.settled(debug)).toBe('succeeded');
    const refusal = service.act(debug, { action: 'step' });
    await expect(refusal).rejects.toBeInstanceOf(StoreError);
    await expect(refusal).rejects.toThrow(/it is succeeded, not paused at a breakpoint/);
    expect(runDetail(h.model(debug)).run.permittedActions.map((a) => a.action)).not.toContain('continue');
  });

  it('a breakpoint and a step survive a restart of the engine: the run is still paused there, and step still works', async () => {
    const { h, start } = await setUp();
    const runId = start({ breakpoints: ['fetch'] });
    expect(await h.engine.settled(runId)).toBe('paused');
    h.restart(); // the old engine is abandoned, as by a crash
    h.engine.recover();
    expect(await h.engine.settled(runId)).toBe('paused');
    expect(hits('/fetch')).toBe(0);
    expect(h.model(runId).debug?.pausedAt).toEqual({ stepId: 'fetch', activation: 1 });

    // Step, and stop while the stepped call is in flight: the next engine still pauses after it.
    let answer: (() => void) | undefined;
    server?.handle((req, res) => {
      answer = () => json(res, 200, { value: 41 });
      if (req.url !== '/fetch') answer();
    });
    await h.engine.debugResume(runId, 'step', 'ana', 'one at a time');
    await until(() => hits('/fetch') === 1, 'the stepped call');
    h.restart();
    answer?.();
    server?.handle((_req, res) => json(res, 200, { value: 41 }));
    h.engine.recover();
    expect(await h.engine.settled(runId)).toBe('paused');
    const model = h.model(runId);
    expect(model.debug?.pausedAt).toEqual({ stepId: 'summarize', activation: 1 });
    expect(data(h.events(runId), 'attempt_failed', 'fetch').map((d) => d.error.code)).toEqual(['interrupted']);
    expect(model.steps.get('fetch')?.state).toBe('succeeded');
    await h.engine.debugResume(runId, 'continue', 'ana', 'done stepping');
    expect(await h.engine.settled(runId)).toBe('succeeded');
  });
});

describe('pinned outputs', () => {
  it('settle the step with the pinned output without calling it, marked pinned everywhere', async () => {
    const { h, start } = await setUp();
    const runId = start({ pins: { fetch: ENGINE_DEBUG_PINNED_FETCH } });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect([hits('/fetch'), hits('/notify')]).toEqual([0, 1]);
    expect(server?.received.find((r) => r.url === '/notify')?.body).toBe('{"value":7}');
    const events = h.events(runId);
    expect(data(events, 'attempt_started', 'fetch')).toMatchObject([{ pinned: true }]);
    expect(data(events, 'attempt_succeeded', 'fetch')).toMatchObject([{ pinned: true, output: ENGINE_DEBUG_PINNED_FETCH }]);
    expect(data(events, 'attempt_succeeded', 'notify')[0]?.pinned).toBeUndefined();
    const detail = runDetail(h.model(runId));
    const fetch = detail.steps.find((s) => s.id === 'fetch');
    expect(fetch?.attempts[0]).toMatchObject({ pinned: true, evidence: { pinned: true, satisfies: true } });
    expect(fetch?.evidence).toMatchObject({ id: 'fetch/1.1', pinned: true });
    expect(fetch?.next).toMatch(/^done: pinned evidence fetch\/1\.1/);
    const notify = detail.steps.find((s) => s.id === 'notify');
    expect(notify?.attempts[0]?.pinned).toBeUndefined();
    expect(notify?.evidence?.pinned).toBeUndefined();
    expect(detail.run.debug).toEqual({ breakpoints: [], pins: ['fetch'], pausedAt: null, stepping: false });
  });

  it('are checked like a real output: the schema when the run is created, the accept rule when used', async () => {
    const { h } = await setUp();
    expect(() => checkDebug(workflow, { pins: { fetch: { status: 'ok' } } })).toThrow(/the pinned output of "fetch" does not match its output schema/);
    try {
      checkDebug(workflow, { pins: { fetch: { status: 'ok' } } });
    } catch (e) {
      expect(e).toBeInstanceOf(ServiceError);
      expect((e as ServiceError).path).toBe('$.debug.pins');
    }
    // The accept rule (status 200) reads the output in the run: a pin that fails it fails the step, once.
    const hash = h.store.saveDefinition(workflow, Date.now());
    const runId = h.engine.startRun({ workflow, definitionHash: hash, input: { base: server?.base }, workspaceDir: h.dir, debug: { breakpoints: [], pins: { fetch: { status: 500, headers: {}, body: {} } } } });
    expect(await h.engine.settled(runId)).toBe('failed');
    expect(hits('/fetch')).toBe(0);
    const failed = data(h.events(runId), 'attempt_failed', 'fetch');
    expect(failed).toMatchObject([{ error: { code: 'acceptance_not_met' }, retryable: false, pinned: true }]);
    expect(runDetail(h.model(runId)).steps.find((s) => s.id === 'fetch')?.attempts[0]?.evidence).toMatchObject({ satisfies: false, pinned: true });
  });

  it('refuse breakpoints and pins that name no step, and pins on an end step', () => {
    expect(() => checkDebug(workflow, { breakpoints: ['nope'] })).toThrow('the breakpoint "nope" names no step of workflow "debug-flow"; its steps are fetch, summarize, notify, done; nothing was run');
    expect(() => checkDebug(workflow, { pins: { ghost: 1 } })).toThrow(/the pin "ghost" names no step/);
    expect(() => checkDebug(workflow, { pins: { done: {} } })).toThrow(/on an end step/);
    expect(checkDebug(workflow, { breakpoints: [], pins: {} })).toBeUndefined();
    expect(checkDebug(workflow, { breakpoints: ['notify', 'notify'] })).toEqual({ breakpoints: ['notify'], pins: {} });
  });

  it('are pinned again in a revision, never reused as evidence', async () => {
    const { h, service, start } = await setUp();
    const runId = start({ pins: { fetch: ENGINE_DEBUG_PINNED_FETCH } });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    await service.act(runId, { action: 'revise', input: { base: server?.base ?? '' } });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(data(events, 'attempt_started', 'fetch')).toMatchObject([{ pinned: true }, { pinned: true }]);
    expect(data(events, 'evidence_reused', 'fetch')).toEqual([]);
    expect(hits('/fetch')).toBe(0);
    // The rule itself: pinned evidence is no candidate, even where nothing pins the step any more.
    const model = h.model(runId);
    model.debug = null;
    const step = workflow.steps.find((s) => s.id === 'fetch');
    const s = model.steps.get('fetch');
    const hashOf = model.steps.get('fetch')?.attempts[0]?.inputHash ?? '';
    if (step === undefined || s === undefined) throw new Error('no fetch step');
    expect(decideRevision(model, step, s, hashOf, model.inputRevision + 1)).toMatchObject({ kind: 'run' });
  });

  it('are never imported by a fork: the fork, a normal run, calls the step for real', async () => {
    const { h, service, start } = await setUp();
    const source = start({ pins: { fetch: ENGINE_DEBUG_PINNED_FETCH } });
    expect(await h.engine.settled(source)).toBe('succeeded');
    expect(hits('/fetch')).toBe(0);
    const fork = service.fork(source, { action: 'fork', from: 'notify' });
    expect(await h.engine.settled(fork.runId)).toBe('succeeded');
    const events = h.events(fork.runId);
    expect(events[0]?.type === 'run_created' && events[0].data.debug).toBeUndefined();
    expect(events.filter((e) => e.type === 'evidence_imported').map((e) => e.step)).toEqual(['summarize']);
    expect(hits('/fetch')).toBe(1);
    expect(data(events, 'attempt_started', 'fetch')[0]?.pinned).toBeUndefined();
    expect(data(events, 'attempt_succeeded', 'fetch')[0]?.output).toMatchObject({ status: 200, body: { value: 41 } });
    // The real output differs from the pin, so the step after it runs again rather than reuse what the pin fed it.
    expect(data(events, 'evidence_reused', 'summarize')).toEqual([]);
    expect(runDetail(h.model(fork.runId)).run.debug).toBeUndefined();
    expect(service.runs({}).runs.map((r) => [r.id, r.debug])).toEqual(expect.arrayContaining([[source, true], [fork.runId, undefined]]));
  });
});

describe('lists', () => {
  it('mark the tasks of a debug run; a pinned human step opens no task', async () => {
    const hh = harness();
    h = hh;
    const approval = parseWorkflow(wf('debug-approval', [
      { id: 'ask', kind: 'human', deadlineMs: 3_600_000, config: { task: 'approve', title: 'Approve it' } },
      { id: 'then', kind: 'transform', config: { expression: 'steps.ask.output.decision' } },
      end(),
    ], [{ id: 'a', from: 'ask', to: 'then' }, { id: 'b', from: 'then', to: 'done' }]));
    hh.store.saveDefinition(approval, Date.now());
    const service = new EngineService(hh.store, hh.engine, hh.dir);
    const start = (debug?: Parameters<typeof checkDebug>[1]): string => {
      const checked = checkDebug(approval, debug);
      return service.startChecked(checkStart(approval, hh.dir, {}), checked === undefined ? {} : { debug: checked }).runId;
    };
    const plain = start();
    const debug = start({ breakpoints: ['then'] });
    const pinned = start({ pins: { ask: { decision: 'approved', by: 'pin', at: '2026-01-01T00:00:00.000Z' } } });
    expect(await hh.engine.settled(plain)).toBe('waiting');
    expect(await hh.engine.settled(debug)).toBe('waiting');
    expect(await hh.engine.settled(pinned)).toBe('succeeded');
    const tasks = service.tasks().map((t) => [t.runId, t.debug]);
    expect(tasks).toHaveLength(2);
    expect(tasks).toEqual(expect.arrayContaining([[plain, undefined], [debug, true]]));
    expect(types(hh.events(pinned), 'ask')).not.toContain('task_opened');
    expect(hh.model(pinned).steps.get('then')?.output).toBe('approved');
  });
});
