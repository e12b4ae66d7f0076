// One sample of the server benchmark's live-stream case: RUNS concurrent runs of RUN_STEPS no-op
// command steps through a real server (createServer, as `weft serve` builds it) on a fresh store,
// with or without one WebSocket client in its own process (stream-client.mjs). It reports the
// engine's wall time, the CPU of this process (the engine's thread, the HTTP and WebSocket
// server on it, and the read worker's thread) and what the client received.
import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { EngineService } from '../../engine/service/engine-service.ts';
import { createServer } from '../../engine/server/create-server.ts';
import { engineFixture, type EngineFixture } from './engine-fixture.ts';
import { chainWorkflow } from './engine-workflows.ts';
import { noopExecutor } from './engine-measure.ts';

export const TOKEN = 'bench-token-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
/**
 * The stream's load: RUNS runs of RUN_STEPS steps at once. 10,000 steps keep the engine busy for
 * a second or more, so a sample measures the stream's steady cost; 2,000 (0.3 s) let a client's
 * first reads, a cold code path or the machine's noise decide the figure.
 */
export const RUNS = 200;
export const RUN_STEPS = 50;
const CLIENT = fileURLToPath(new URL('./stream-client.mjs', import.meta.url));

// A full collection before each timed window: otherwise each sample pays, at some point of its
// window, for the garbage of the sample before (its whole store, engine and server), and which
// sample pays how much is chance. The bench runs without --expose-gc (tsx), so the flag is set here.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * `none`: no client; `single`/`batch`: one client on every run; `page`: one client on a run page;
 * `watch`: its subscription without its reads; `pages`: PAGES run pages, `watches` their
 * subscriptions without their reads (stream-client.mjs).
 */
export type ClientMode = 'none' | 'single' | 'batch' | 'page' | 'watch' | 'pages' | 'watches';
/** Run pages of the `pages` case (as stream-client.mjs has it). */
export const PAGES = 10;

export interface StreamSample {
  engineMs: number;
  /** CPU of this process (the engine's thread, the server on it, the read worker) while the runs went. */
  serverCpuMs: number;
  steps: number;
  delivered: { events: number; frames?: number; ms: number; resyncs: number; reads?: number; cpuMs?: number } | undefined;
}

export async function withServer<T>(f: EngineFixture, body: (url: string) => Promise<T>): Promise<T> {
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

async function concurrentRuns(f: EngineFixture, workflow: Workflow, runs: number, onStarted: (ids: string[]) => void = () => {}): Promise<{ ms: number; cpuMs: number }> {
  collect();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const ids = Array.from({ length: runs }, () => f.start(workflow));
  onStarted(ids);
  const states = await Promise.all(ids.map((id) => f.engine.settled(id)));
  if (states.some((s) => s !== 'succeeded')) throw new Error('a run did not succeed');
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** Runs the load once on a fresh store, with the client `client` (or none), and measures it. */
export async function streamSample(client: ClientMode): Promise<StreamSample> {
  const f = engineFixture({ command: noopExecutor });
  try {
    const workflow = chainWorkflow(RUN_STEPS, 'command');
    const warmRun = f.start(workflow);
    await f.engine.settled(warmRun); // untimed warm-up
    return await withServer(f, async (url) => {
      if (client === 'none') {
        // The same server as the clients find: its read worker up, having answered what a page
        // reads (stream-client.mjs), so the cases differ by the client alone, not by the worker's start.
        const read = (path: string): Promise<unknown> => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.arrayBuffer());
        await Promise.all([read(`/api/runs/${warmRun}`), read(`/api/runs/${warmRun}/events?after=0&limit=1000&elide=65536`), read('/api/runs?limit=50'), read('/api/tasks')]);
        await new Promise((r) => setTimeout(r, 200)); // as long as a client's sample waits
        const { ms, cpuMs } = await concurrentRuns(f, workflow, RUNS);
        return { engineMs: ms, serverCpuMs: cpuMs, steps: RUNS * RUN_STEPS, delivered: undefined };
      }
      const child = spawn(process.execPath, [CLIENT, `${url.replace('http', 'ws')}/api/stream`, TOKEN, client, warmRun], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      const ready = new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes('ready') && resolve())));
      await ready;
      await new Promise((r) => setTimeout(r, 200)); // the backlog (the warm-up run) is delivered
      // The run pages' runs: the first of the 200 (the first PAGES for `pages`), watched from the moment they start.
      let watched: string[] = [];
      const pages = client === 'pages' || client === 'watches' ? PAGES : client === 'page' || client === 'watch' ? 1 : 0;
      const { ms: engineMs, cpuMs: serverCpuMs } = await concurrentRuns(f, workflow, RUNS, (ids) => {
        watched = ids.slice(0, pages);
        if (pages > 0) child.stdin.write(`watch ${watched.join(',')}\n`);
      });
      const targets = pages > 0 ? watched.map((run) => f.store.lastCursor(run)) : [f.store.lastCursor()];
      const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      child.stdin.write(`${targets.join(',')}\n`);
      await done;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      return { engineMs, serverCpuMs, steps: RUNS * RUN_STEPS, delivered: line === undefined ? undefined : (JSON.parse(line) as StreamSample['delivered']) };
    });
  } finally {
    f.close();
  }
}
