// A revalidate check that reads again first (`revalidate.fetch`, docs/long-running.md): in
// virtual time, the read's scripted answer (`approve.revalidate`) keeps the approval fresh when
// the price holds and makes it stale when the price went up, the read failed or it hung past its
// timeout, with the read recorded as evidence (`inputs.fetched`). On a real SQLite store, the read
// is a real http GET to a server on 127.0.0.1, and an engine that stops while it runs reads again
// when the next engine recovers the run. A command that reads (`"effect": "read"`) runs code, so
// it needs a trusted workspace like any command step, and then answers the check from its stdout.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineService } from '../../engine/service/engine-service.ts';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { parseWorkflow } from './harness.ts';
import { waitUntil } from '../wait-until.ts';
import { setTrust } from '../../engine/service/workspace-trust.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { VirtualClock } from '../../engine/runtime/virtual-clock.ts';
import { driveUntilQuiet } from '../../engine/scenario/drive.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { replayRun } from '../../engine/evolution/replay-run.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'scenarios');
const flowJson = JSON.parse(readFileSync(join(fixtures, 'quote-reread.weft.json'), 'utf8')) as Record<string, unknown>;

describe('a revalidate check that reads again (virtual time)', () => {
  const flow = parseWorkflow(flowJson);
  const scenarios = ScenarioFile.parse(JSON.parse(readFileSync(join(fixtures, 'quote-reread.scenarios.json'), 'utf8'))).scenarios;
  const checks = async (name: string) => {
    const scenario = scenarios.find((s) => s.name.startsWith(name));
    if (scenario === undefined) throw new Error(`no scenario "${name}"`);
    const r = await runScenario(flow, scenario);
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
    return r.events.flatMap((e) => (e.type === 'step_revalidated' ? [e.data] : []));
  };

  it('is fresh when the price read again holds, and records the read', async () => {
    const [d, more] = await checks('approved after 3 days, the price read again holds');
    expect(more).toBeUndefined();
    expect(d).toMatchObject({ trigger: 'wait', verdict: 'fresh', check: '$fetched.body.price <= steps.quote.output.body.price' });
    expect(d?.inputs).toMatchObject({ fetched: { kind: 'http', ok: true, output: { status: 200, body: { price: 1200 } }, durationMs: 200 }, read: { 'steps.quote.output.body.price': 1200 } });
  });

  it('is stale when the price went up, and fresh on the new quote', async () => {
    const ds = await checks('approved after 3 days, the price read again went up');
    expect(ds.map((d) => d.verdict)).toEqual(['stale', 'fresh']);
    expect(ds[0]?.why).toMatch(/gave false, not true, after a wait of 2 d 23 h/);
    expect(ds[0]?.inputs).toMatchObject({ fetched: { ok: true, output: { body: { price: 1290 } } } });
  });

  it('is stale, never a crash, when the read fails or hangs past its timeout', async () => {
    const failed = await checks('approved after 3 days, the read fails');
    expect(failed[0]).toMatchObject({ verdict: 'stale', inputs: { fetched: { kind: 'http', ok: false, error: { code: 'http_503', message: "the supplier's API is down" } } } });
    expect(failed[0]?.why).toBe('the http read the check runs first failed (http_503) after a wait of 2 d 23 h, so the step is not known fresh');
    const hung = await checks('approved after 3 days, the read hangs');
    expect(hung[0]).toMatchObject({ verdict: 'stale', inputs: { fetched: { ok: false, error: { code: 'timeout', message: 'no answer within 10000 ms' }, durationMs: 10_000 } } });
  });

  it('reads nothing when no check is due', async () => {
    expect(await checks('approved within 10 minutes')).toEqual([]);
  });

  it('is replayed from the source run\'s record of the read: the same run, the read not repeated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-revalidate-replay-'));
    for (const name of ['approved after 3 days, the price read again went up', 'approved after 3 days, the read fails']) {
      const dbPath = join(dir, `${name.length}.db`);
      const scenario = scenarios.find((s) => s.name.startsWith(name));
      if (scenario === undefined) throw new Error(`no scenario "${name}"`);
      const source = await runScenario(flow, scenario, { dbPath });
      const runId = source.runs[0]?.runId ?? '';
      const db = openDatabase(dbPath);
      const store = new Store(db);
      try {
        const r = await replayRun(store, runId, { workflow: flow, file: 'quote-reread.weft.json' }, { clock: systemClock, random: systemRandom });
        expect(r.needsRecording, name).toBeUndefined();
        expect(r.verdict, name).toBe('same');
        expect(r.replayState).toBe('succeeded');
      } finally {
        db.close();
      }
    }
  });

  it('ends a read whose executor ignores the abort at its timeout, after the grace period: stale, not stuck', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-revalidate-stuck-'));
    const clock = new VirtualClock();
    const store = new Store(openDatabase(join(dir, 'weft.db')));
    let calls = 0;
    // An http executor that never answers and never stops.
    const stuck = { execute: () => ((calls += 1), new Promise<never>(() => undefined)) };
    const engine = new Engine({ store, clock, random: systemRandom, executors: { http: stuck } });
    const quote = { id: 'quote', kind: 'transform', config: { expression: '{ "status": 200, "body": { "price": 1200 } }' } };
    const flow = parseWorkflow({ ...flowJson, steps: (flowJson['steps'] as { id: string }[]).map((s) => (s.id === 'quote' ? quote : s.id === 'order' ? { id: 'order', kind: 'transform', config: { expression: '1' } } : s)) });
    const runId = engine.startRun({ workflow: flow, definitionHash: store.saveDefinition(flow, clock.now()), input: { apiBase: 'http://unused.test', item: 'laptop' }, workspaceDir: dir });
    expect(await engine.settled(runId)).toBe('waiting');
    clock.setTimer(86_400_000, () => void engine.decideTask(runId, 'approve', { decision: 'approved', by: 'ann' }));
    // A day passes, the approval comes, the read hangs 10 s, then the 10 s grace: the approval is stale.
    await driveUntilQuiet(engine, clock, 20);
    const [d] = store.readEvents(runId).filter((e) => e.type === 'step_revalidated');
    expect(calls).toBe(1);
    expect(d?.data).toMatchObject({ verdict: 'stale', inputs: { fetched: { ok: false, error: { code: 'timeout' }, durationMs: 20_000 } } });
    engine.close();
  });
});

describe('a revalidate check that reads again (real store, real http)', () => {
  let session: EngineSession | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    server = undefined;
  });

  /** A supplier on 127.0.0.1: GET /quotes/laptop answers `price`; `hold` keeps the re-read (the second GET) waiting. */
  async function supplier(state: { price: number; hold: boolean; gets: number; held: (() => void)[] }): Promise<string> {
    server = createServer((req, res) => {
      const answer = (): void => {
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.method === 'POST' ? { orderId: 'O-1' } : { price: state.price }));
      };
      if (req.method === 'GET') state.gets++;
      if (req.method === 'GET' && state.gets > 1 && state.hold) state.held.push(answer);
      else answer();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}`;
  }

  const open = async (dir: string, drain = true): Promise<EngineService> => {
    const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
    session = await openEngineSession(join(dir, 'weft.db'), 'revalidate fetch test', 'create', env, { drain });
    return new EngineService(session.store, session.engine, dir, env, { actor: 'tester' });
  };
  const workspace = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-revalidate-fetch-'));
    writeFileSync(join(dir, 'quote-reread.weft.json'), JSON.stringify(flowJson));
    return dir;
  };
  const reworded = Workflow.parse({ ...flowJson, version: 2, description: 'v2 only rewords this text.' });
  const revalidations = (runId: string) => (session?.store.readEvents(runId) ?? []).filter((e) => e.type === 'step_revalidated');

  it('reads the price again over http after a migration: fresh when it holds, stale when it went up', async () => {
    const state = { price: 1200, hold: false, gets: 0, held: [] };
    const apiBase = await supplier(state);
    const svc = await open(workspace());
    const runs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { runId } = await svc.startRun({ workflow: 'quote-reread', input: { apiBase, item: 'laptop' } });
      expect(await svc.settled(runId)).toBe('waiting');
      await svc.migrate([runId], { kind: 'definition', workflow: reworded }, { reason: 'reworded' });
      runs.push(runId);
    }
    await svc.decide(runs[0] as string, 'approve', { action: 'approve', by: 'ann' });
    expect(await svc.settled(runs[0] as string)).toBe('succeeded');
    const [fresh] = revalidations(runs[0] as string);
    expect(fresh?.data).toMatchObject({ trigger: 'migration', verdict: 'fresh', inputs: { fetched: { kind: 'http', ok: true, output: { status: 200, body: { price: 1200 } } } } });

    state.price = 1290;
    await svc.decide(runs[1] as string, 'approve', { action: 'approve', by: 'ann' });
    // Stale: a new quote is fetched (at the new price) and the approval asked again.
    expect(await svc.settled(runs[1] as string)).toBe('waiting');
    const [stale] = revalidations(runs[1] as string);
    expect(stale?.data).toMatchObject({ trigger: 'migration', verdict: 'stale', inputs: { fetched: { ok: true, output: { body: { price: 1290 } } } } });
    const step = restartRecord(foldRun(session!.store, runs[1] as string)).steps.find((s) => s.id === 'approve');
    expect(step?.revalidation).toMatchObject({ verdict: 'stale', inputs: { fetched: { ok: true } } });
  });

  it('runs a command read only in a trusted workspace, and checks what it printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-revalidate-command-'));
    const flow = JSON.parse(JSON.stringify(flowJson)) as { id: string; steps: Record<string, unknown>[] };
    flow.id = 'quote-by-command';
    for (const s of flow.steps) {
      if (s['id'] === 'quote') Object.assign(s, { kind: 'transform', config: { expression: '{ "status": 200, "body": { "price": 1200 } }' } });
      if (s['id'] === 'order') Object.assign(s, { kind: 'transform', config: { expression: '{ "orderId": "O-1" }' } });
      if (s['id'] === 'approve') {
        // The waiting step's input (the item) reaches the command on stdin; it prints today's price.
        Object.assign(s, { input: '{ "item": input.item }', revalidate: { check: '$fetched.price <= steps.quote.output.body.price', fetch: { kind: 'command', effect: 'read', config: { argv: [process.execPath, '-e', 'let t="";process.stdin.on("data",(d)=>t+=d).on("end",()=>console.log(JSON.stringify({item: JSON.parse(t).item, price: 1150})))'] } } } });
      }
    }
    writeFileSync(join(dir, 'quote-by-command.weft.json'), JSON.stringify(flow));
    const svc = await open(dir);
    await expect(svc.startRun({ workflow: 'quote-by-command', input: { apiBase: 'unused', item: 'desk' } })).rejects.toThrow(/runs scripts or commands \(approve\.revalidate\) from .*, a workspace you have not trusted/);
    setTrust(dir, true, { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') });
    const { runId } = await svc.startRun({ workflow: 'quote-by-command', input: { apiBase: 'unused', item: 'desk' } });
    expect(await svc.settled(runId)).toBe('waiting');
    await svc.migrate([runId], { kind: 'definition', workflow: Workflow.parse({ ...flow, version: 2 }) }, { reason: 'a new version' });
    await svc.decide(runId, 'approve', { action: 'approve', by: 'ann' });
    expect(await svc.settled(runId)).toBe('succeeded');
    expect(revalidations(runId).map((e) => e.data)).toMatchObject([{ verdict: 'fresh', inputs: { fetched: { kind: 'command', ok: true, output: { item: 'desk', price: 1150 } } } }]);
  });

  it('reads again when an engine stopped during the read, and settles the approval then', async () => {
    const state = { price: 1200, hold: true, gets: 0, held: [] as (() => void)[] };
    const apiBase = await supplier(state);
    const dir = workspace();
    let svc = await open(dir, false);
    const { runId } = await svc.startRun({ workflow: 'quote-reread', input: { apiBase, item: 'laptop' } });
    expect(await svc.settled(runId)).toBe('waiting');
    await svc.migrate([runId], { kind: 'definition', workflow: reworded }, { reason: 'reworded' });
    await svc.decide(runId, 'approve', { action: 'approve', by: 'ann' });
    await waitUntil(() => state.held.length === 1, 'the re-read reached the supplier');
    // The engine stops while the read waits for its answer: the decision is recorded, the step still waits.
    await session?.close();
    session = undefined;
    state.hold = false;
    svc = await open(dir);
    expect(foldRun(session!.store, runId).steps.get('approve')).toMatchObject({ state: 'waiting' });
    session!.engine.recover();
    expect(await svc.settled(runId)).toBe('succeeded');
    expect(revalidations(runId).map((e) => [e.data.trigger, e.data.verdict])).toEqual([['migration', 'fresh']]); // the migration during the wait comes first, as always
    state.held.forEach((answer) => answer());
  });
});
