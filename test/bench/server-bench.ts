// `npm run bench -- server`: what the engine server costs. p50 latency of GET /api/runs/:id (the
// restart record) for a 1,000-step run, and the live stream: events per second delivered to one
// WebSocket client (in its own process) while the engine runs RUNS concurrent runs, with the
// engine's steps per second with and without that client. The app's case is a client on a run
// page: it subscribes to that one run and reads what the page reads (stream-client.mjs `page`);
// the aim is under 10% loss. The clients subscribed to every run show what that would cost.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { EngineService } from '../../engine/service/engine-service.ts';
import { createServer } from '../../engine/server/create-server.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { engineFixture, type EngineFixture } from './engine-fixture.ts';
import { chainWorkflow } from './engine-workflows.ts';
import { noopExecutor } from './engine-measure.ts';

const TOKEN = 'bench-token-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
/**
 * The stream's load: RUNS runs of RUN_STEPS steps at once. 10,000 steps keep the engine busy for
 * a second or more, so a sample measures the stream's steady cost; 2,000 (0.3 s) let a client's
 * first reads, a cold code path or the machine's noise decide the figure.
 */
const RUNS = 200;
const RUN_STEPS = 50;
const CLIENT = fileURLToPath(new URL('./stream-client.mjs', import.meta.url));

async function withServer<T>(f: EngineFixture, body: (url: string) => Promise<T>): Promise<T> {
  const service = new EngineService(f.store, f.engine, f.dir, process.env, { actor: 'bench' });
  const app = await createServer({ service, store: f.store, token: TOKEN, appDir: undefined, version: 'bench', workspace: f.dir, storePath: f.dbPath });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  try {
    return await body(`http://127.0.0.1:${port}`);
  } finally {
    await app.close();
  }
}

async function detailLatency(): Promise<{ p50: number; p95: number; bytes: number }> {
  const f = engineFixture({ command: noopExecutor });
  try {
    const workflow = chainWorkflow(1000, 'transform');
    const runId = f.start(workflow);
    const state = await f.engine.settled(runId);
    if (state !== 'succeeded') throw new Error(`the 1,000-step run ended ${state}`);
    return await withServer(f, async (url) => {
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 40; i++) {
        const t = performance.now();
        const r = await fetch(`${url}/api/runs/${runId}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        const body = await r.text();
        samples.push(performance.now() - t);
        bytes = body.length;
        if (r.status !== 200) throw new Error(`GET /api/runs/:id answered ${r.status}`);
      }
      const warm = samples.slice(5);
      warm.sort((a, b) => a - b);
      return { p50: median([...warm]), p95: warm[Math.floor(warm.length * 0.95)] ?? 0, bytes };
    });
  } finally {
    f.close();
  }
}

interface StreamSample {
  engineMs: number;
  /** CPU of the server's process (the engine's thread and the read worker's) while the runs went. */
  serverCpuMs: number;
  steps: number;
  delivered: { events: number; ms: number; resyncs: number; reads?: number; cpuMs?: number } | undefined;
}

/** The cursor of the run's newest event (0 for none), read page by page through the store's log. */
function lastCursorOf(f: EngineFixture, runId: string): number {
  let cursor = 0;
  for (let page = f.store.readEventsAfter(0, { runs: [runId] }); page.length > 0; page = f.store.readEventsAfter(cursor, { runs: [runId] })) cursor = page[page.length - 1]?.cursor ?? cursor;
  return cursor;
}

async function concurrentRuns(f: EngineFixture, workflow: Workflow, runs: number, onStarted: (ids: string[]) => void = () => {}): Promise<{ ms: number; cpuMs: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const ids = Array.from({ length: runs }, () => f.start(workflow));
  onStarted(ids);
  const states = await Promise.all(ids.map((id) => f.engine.settled(id)));
  if (states.some((s) => s !== 'succeeded')) throw new Error('a run did not succeed');
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

type ClientMode = 'none' | 'single' | 'batch' | 'page';

async function streamSample(client: ClientMode): Promise<StreamSample> {
  const f = engineFixture({ command: noopExecutor });
  try {
    const workflow = chainWorkflow(RUN_STEPS, 'command');
    await f.engine.settled(f.start(workflow)); // untimed warm-up
    return await withServer(f, async (url) => {
      if (client === 'none') {
        const { ms, cpuMs } = await concurrentRuns(f, workflow, RUNS);
        return { engineMs: ms, serverCpuMs: cpuMs, steps: RUNS * RUN_STEPS, delivered: undefined };
      }
      const child = spawn(process.execPath, [CLIENT, `${url.replace('http', 'ws')}/api/stream`, TOKEN, client], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      const ready = new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes('ready') && resolve())));
      await ready;
      await new Promise((r) => setTimeout(r, 200)); // the backlog (the warm-up run) is delivered
      // The run page's run: the first of the 200, watched from the moment it starts.
      let watched = '';
      const { ms: engineMs, cpuMs: serverCpuMs } = await concurrentRuns(f, workflow, RUNS, (ids) => {
        watched = ids[0] ?? '';
        if (client === 'page') child.stdin.write(`watch ${watched}\n`);
      });
      const lastCursor = client === 'page' ? lastCursorOf(f, watched) : f.store.lastCursor();
      const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      child.stdin.write(`${lastCursor}\n`);
      await done;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      return { engineMs, serverCpuMs, steps: RUNS * RUN_STEPS, delivered: line === undefined ? undefined : (JSON.parse(line) as StreamSample['delivered']) };
    });
  } finally {
    f.close();
  }
}

export const benchmark: Benchmark = {
  name: 'server',
  description: 'weft serve: restart record latency, and the live stream against engine throughput',
  async run(print) {
    const detail = await detailLatency();
    for (const row of formatTable([
      ['GET /api/runs/:id, 1,000-step run', 'p50 ms', 'p95 ms', 'body KiB'],
      ['restart record + definition', detail.p50.toFixed(1), detail.p95.toFixed(1), (detail.bytes / 1024).toFixed(0)],
    ])) print(row);
    print('');
    const samples = { none: [] as number[], single: [] as number[], batch: [] as number[], page: [] as number[] };
    const rates = { single: [] as number[], batch: [] as number[], page: [] as number[] };
    // CPU per 1,000 steps, of the server's process and of the client's: on a busy machine the
    // wall-clock rate also moves with what else runs; CPU says what the stream itself costs.
    const serverCpu = { none: [] as number[], single: [] as number[], batch: [] as number[], page: [] as number[] };
    const clientCpu = { single: [] as number[], batch: [] as number[], page: [] as number[] };
    let resyncs = 0;
    let reads = 0;
    for (let rep = 0; rep < 5; rep++) {
      for (const client of ['none', 'single', 'batch', 'page'] as const) {
        const s = await streamSample(client);
        samples[client].push((s.steps / s.engineMs) * 1000);
        serverCpu[client].push((s.serverCpuMs / s.steps) * 1000);
        if (client !== 'none' && s.delivered !== undefined) {
          rates[client].push((s.delivered.events / Math.max(1, s.delivered.ms)) * 1000);
          resyncs += s.delivered.resyncs;
          reads += s.delivered.reads ?? 0;
          if (s.delivered.cpuMs !== undefined) clientCpu[client].push((s.delivered.cpuMs / s.steps) * 1000);
        }
      }
    }
    const base = median(samples.none);
    const loss = (x: number): string => `${(((base - x) / base) * 100).toFixed(1)}%`;
    const cpu = (xs: number[]): string => (xs.length === 0 ? '' : median([...xs]).toFixed(0));
    const single = median(samples.single);
    const batched = median(samples.batch);
    const onPage = median(samples.page);
    for (const row of formatTable([
      [`${RUNS} concurrent ${RUN_STEPS}-step runs (no-op command steps)`, 'steps/s', 'loss', 'target', 'events/s to client', 'server CPU ms/1k steps', 'client CPU ms/1k steps'],
      ['engine, no client', base.toFixed(0), '', '', '', cpu(serverCpu.none), ''],
      ['one client on every run, a frame per event', single.toFixed(0), loss(single), '', median(rates.single).toFixed(0), cpu(serverCpu.single), cpu(clientCpu.single)],
      ['one client on every run, batch frames', batched.toFixed(0), loss(batched), '', median(rates.batch).toFixed(0), cpu(serverCpu.batch), cpu(clientCpu.batch)],
      ['one client on a run page (the app)', onPage.toFixed(0), loss(onPage), '< 10%', median(rates.page).toFixed(0), cpu(serverCpu.page), cpu(clientCpu.page)],
    ])) print(row);
    print(`medians of 5 reps; each client runs in its own process; resyncs asked of them: ${resyncs}; HTTP reads of the run-page clients: ${reads}.`);
    print(`the app (a run page watching one of the 200 runs): ${loss(onPage)} loss against a target of under 10%: ${(base - onPage) / base < 0.1 ? 'met' : 'NOT met'}.`);
  },
};

