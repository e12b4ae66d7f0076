// What cannot become a test, and a debug run that can: a run still going, a fork (what it kept
// came from another run) and a debug run that pinned a step the engine computes are refused with
// what to do; a debug run's pin on a step that calls out becomes that call's scripted answer, and
// the scenario made from it passes. Real engine, real SQLite store, a real HTTP server on
// 127.0.0.1 that counts the calls.
import { afterEach, describe, expect, it } from 'vitest';
import { checkDebug } from '../../engine/service/debug-settings.ts';
import { EngineService, checkStart } from '../../engine/service/engine-service.ts';
import { ServiceError } from '../../engine/service/service-error.ts';
import { RunReader } from '../../engine/service/run-reader.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { end, harness, parseWorkflow, until, wf, type Harness } from './harness.ts';
import { json, startServer, type TestServer } from './executors/http/http-test-server.ts';

let h: Harness | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  h?.close();
  h = undefined;
  await server?.close();
  server = undefined;
});

/** fetch (an API call) → summarize (a transform) → approve (a person) → done. */
const workflow = parseWorkflow(wf('from-run-flow', [
  { id: 'fetch', kind: 'http', config: { method: 'GET', url: '{{ input.base }}/fetch' } },
  { id: 'summarize', kind: 'transform', config: { expression: 'steps.fetch.output.body' } },
  { id: 'approve', kind: 'human', config: { task: 'approve', title: 'Approve' }, deadlineMs: 86_400_000 },
  end(),
], [
  { id: 'e1', from: 'fetch', to: 'summarize' },
  { id: 'e2', from: 'summarize', to: 'approve' },
  { id: 'e3', from: 'approve', to: 'done' },
]));

async function setUp() {
  server = await startServer((_req, res) => json(res, 200, { value: 41 }));
  const hh = harness();
  h = hh;
  hh.store.saveDefinition(workflow, Date.now());
  const service = new EngineService(hh.store, hh.engine, hh.dir);
  const reader = new RunReader(hh.store);
  const base = server.base;
  const start = (debug?: Parameters<typeof checkDebug>[1]): string => {
    const checked = checkDebug(workflow, debug);
    return service.startChecked(checkStart(workflow, hh.dir, { base }), checked === undefined ? {} : { debug: checked }).runId;
  };
  const waiting = (runId: string) => until(() => hh.events(runId).some((e) => e.type === 'task_opened'), `a task open in run ${runId}`);
  return { hh, service, reader, start, waiting };
}

const refusal = async (p: Promise<unknown>): Promise<ServiceError> => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  if (!(e instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(e)}`);
  return e;
};

describe('runs that cannot become a test', () => {
  it('a run waiting for a person is refused with how to fix it; once decided it becomes a test that passes', async () => {
    const { service, reader, start, waiting } = await setUp();
    const runId = start();
    await waiting(runId);
    const e = await refusal(reader.runScenario(runId));
    expect(e.code).toBe('refused');
    expect(e.message).toBe(`run ${runId} is waiting: a test is made from a run that has ended (succeeded, failed or cancelled), since a scenario runs until nothing is left to do; let it finish, or cancel it (weft cancel ${runId}), then make the test`);
    await service.decide(runId, 'approve', { action: 'approve', by: 'ann' });
    await until(() => h?.events(runId).some((e) => e.type === 'run_state_changed' && e.data.state === 'succeeded') === true, 'run runId succeeded');
    const calls = server?.received.length;
    const { scenario } = await reader.runScenario(runId);
    expect(scenario.decisions).toEqual([{ step: 'approve', atMs: expect.any(Number), decision: 'approve', by: 'ann' }]);
    expect(scenario.steps?.fetch).toEqual([{ succeed: expect.objectContaining({ status: 200, body: { value: 41 } }), ...('takeMs' in (scenario.steps?.fetch?.[0] ?? {}) ? { takeMs: expect.any(Number) } : {}) }]);
    expect(scenario.expect.steps?.summarize).toEqual({ state: 'succeeded', output: { value: 41 }, attempts: 1 });
    const result = await runScenario(workflow, scenario);
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(result.passed).toBe(true);
    expect(server?.received.length).toBe(calls);
  });

  it('a fork is refused, naming the run to make the test from', async () => {
    const { service, reader, start, waiting } = await setUp();
    const runId = start();
    await waiting(runId);
    await service.decide(runId, 'approve', { action: 'reject', by: 'ann', reason: 'no' });
    await until(() => h?.events(runId).some((e) => e.type === 'run_state_changed' && e.data.state === 'failed') === true, 'run runId failed');
    const fork = service.fork(runId, { action: 'fork', from: 'approve', by: 'ann' }).runId;
    await waiting(fork);
    await service.act(fork, { action: 'cancel', by: 'ann', reason: 'done looking' });
    await until(() => h?.events(fork).some((e) => e.type === 'run_state_changed' && e.data.state === 'cancelled') === true, 'run fork cancelled');
    const e = await refusal(reader.runScenario(fork));
    expect(e.message).toBe(`run ${fork} is a fork of run ${runId} from step "approve": what it kept came from that run, and a scenario starts from nothing; make the test from run ${runId} (a scenario forks with an operator "fork" action, see docs/scenarios.md)`);
  });

  it("a debug run's pin on a call becomes its answer; a pin on a step the engine computes is refused", async () => {
    const { service, reader, start, waiting } = await setUp();
    const pinned = start({ pins: { fetch: { status: 200, headers: {}, body: { value: 7 } } } });
    await waiting(pinned);
    await service.decide(pinned, 'approve', { action: 'approve', by: 'ann' });
    await until(() => h?.events(pinned).some((e) => e.type === 'run_state_changed' && e.data.state === 'succeeded') === true, 'run pinned succeeded');
    expect(server?.received.length).toBe(0); // the pin answered; nothing was called
    const { scenario } = await reader.runScenario(pinned);
    expect(scenario.steps?.fetch).toEqual([{ succeed: { status: 200, headers: {}, body: { value: 7 } } }]);
    expect((await runScenario(workflow, scenario)).passed).toBe(true);

    const computed = start({ pins: { summarize: { value: 1 } } });
    await waiting(computed);
    await service.act(computed, { action: 'cancel', by: 'ann', reason: 'seen enough' });
    await until(() => h?.events(computed).some((e) => e.type === 'run_state_changed' && e.data.state === 'cancelled') === true, 'run computed cancelled');
    const e = await refusal(reader.runScenario(computed));
    expect(e.message).toBe(`run ${computed} is a debug run that pinned step "summarize" (transform), which the engine computes itself; a scenario answers only the steps that call out, so it cannot give "summarize" that output; make the test from a run without that pin`);
  });
});
