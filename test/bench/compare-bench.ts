// `npm run bench -- compare`: how long one comparison of two runs holding 3 MB inputs holds the
// engine's event loop (issue 19, item 11). Two runs of a three-step workflow whose steps are each
// given the whole run input (the first echoes it back) run on a real engine and store; then
// RunReader.runComparison (fold both logs, RunDetails, compareRuns with the server's cut) and the
// JSON of its answer are timed, each part on its own, since all of it runs on the thread that
// would serve `GET /api/compare` if it computed the comparison itself. The server computes it on a
// worker thread (engine/service/compare-worker.ts) instead: `GET /api/compare` is asked over real
// HTTP while `GET /api/health` is asked every 5 ms and the engine thread's event-loop delay is
// watched, and the same is measured for as long with no comparison, as the machine's baseline.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { COMPARE_FIELD_LIMIT, COMPARE_VALUE_LIMIT } from '../../shared/api/run-comparison.ts';
import { compareRuns } from '../../shared/run/compare-runs.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { EngineService } from '../../engine/service/engine-service.ts';
import { RunReader } from '../../engine/service/run-reader.ts';
import { createServer } from '../../engine/server/create-server.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { engineFixture, type EngineFixture } from './engine-fixture.ts';

const TOKEN = 'bench-token-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
const CUT = { valueLimit: COMPARE_VALUE_LIMIT, fieldLimit: COMPARE_FIELD_LIMIT };
const SAMPLES = 9;

const workflow: Workflow = {
  format: 'weft/v1',
  id: 'bulk',
  version: 1,
  name: 'Bulk',
  steps: [
    { id: 'echo', name: 'echo', kind: 'transform', config: { expression: 'input' } },
    { id: 'count', name: 'count', kind: 'transform', config: { expression: '{"items": $count(input.items)}' } },
    { id: 'done', name: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'a', from: 'echo', to: 'count', on: ['succeeded'] },
    { id: 'b', from: 'count', to: 'done', on: ['succeeded'] },
  ],
} as Workflow;

/** About 3 MB of JSON; the two runs differ in one item and a note. */
function input(side: string): unknown {
  const items = Array.from({ length: 20_000 }, (_, id) => ({ id, name: `item ${id}`, note: 'x'.repeat(120) }));
  items[7] = { id: 7, name: `item 7 of ${side}`, note: side };
  return { items, note: `run ${side}` };
}

async function twoRuns(f: EngineFixture): Promise<[string, string]> {
  const hash = f.store.saveDefinition(workflow, Date.now());
  const ids = ['a', 'b'].map((side) => f.engine.startRun({ workflow, definitionHash: hash, input: input(side), workspaceDir: f.dir }));
  for (const id of ids) if ((await f.engine.settled(id)) !== 'succeeded') throw new Error(`bench run ${id} did not succeed`);
  return [ids[0] ?? '', ids[1] ?? ''];
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const out = f();
  return [out, performance.now() - t];
}

/** The parts of one comparison on the engine's thread, in ms, and the size of the answer. */
function parts(reader: RunReader, a: string, b: string, cut: typeof CUT | undefined): Record<string, number> {
  const [[ma, mb], fold] = time(() => [reader.fold(a), reader.fold(b)] as const);
  const [[da, db], details] = time(() => [runDetail(ma), runDetail(mb)] as const);
  const [c, compare] = time(() => compareRuns(da, db, { a: ma.workflow, b: mb.workflow }, cut === undefined ? {} : { cut }));
  const [text, json] = time(() => JSON.stringify(c));
  return { fold, details, compare, json, total: fold + details + compare + json, bytes: text.length };
}

interface LoopSample {
  /** How long the request took (0 for the idle baseline). */
  compareMs: number;
  worstHealthMs: number;
  /** The longest the engine thread's event loop was late meanwhile (perf_hooks). */
  maxLoopDelayMs: number;
}

/** `body` with `weft serve`'s server (and so its comparison worker) over the fixture's store. */
async function withServer<T>(f: EngineFixture, body: (url: string) => Promise<T>): Promise<T> {
  const service = new EngineService(f.store, f.engine, f.dir, process.env, { actor: 'bench' });
  const app = await createServer({ service, store: f.store, token: TOKEN, appDir: undefined, version: 'bench', workspace: f.dir, storePath: f.dbPath });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  try {
    return await body(`http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`);
  } finally {
    await app.close();
  }
}

const HEADERS = { authorization: `Bearer ${TOKEN}` };

async function compareOverHttp(url: string, a: string, b: string): Promise<void> {
  const r = await fetch(`${url}/api/compare?a=${a}&b=${b}`, { headers: HEADERS });
  await r.text();
  if (r.status !== 200) throw new Error(`GET /api/compare answered ${r.status}`);
}

/**
 * Asks `GET /api/health` every 5 ms while `GET /api/compare` runs (or, with `idleMs`, for that
 * long with nothing else), watching the event loop's delay on this thread, the engine's.
 */
async function healthBehind(url: string, a: string, b: string, idleMs?: number): Promise<LoopSample> {
  let done = false;
  let worst = 0;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      await (await fetch(`${url}/api/health`, { headers: HEADERS })).text();
      worst = Math.max(worst, performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t = performance.now();
  if (idleMs === undefined) await compareOverHttp(url, a, b);
  else await new Promise((r) => setTimeout(r, idleMs));
  const compareMs = idleMs === undefined ? performance.now() - t : 0;
  done = true;
  await probe;
  delay.disable();
  return { compareMs, worstHealthMs: worst, maxLoopDelayMs: delay.max / 1e6 };
}

export const benchmark: Benchmark = {
  name: 'compare',
  description: 'GET /api/compare of two runs holding 3 MB inputs: event-loop time on the engine thread, and /api/health behind it',
  async run(print) {
    const f = engineFixture();
    try {
      const [a, b] = await twoRuns(f);
      const reader = new RunReader(f.store);
      const rows: string[][] = [['one comparison (median of 9)', 'fold ms', 'details ms', 'compare ms', 'JSON ms', 'loop held ms', 'max ms', 'answer KiB']];
      for (const [label, cut] of [['values whole (weft compare --json)', undefined], ['values elided (GET /api/compare)', CUT]] as const) {
        parts(reader, a, b, cut); // warm-up
        const samples = Array.from({ length: SAMPLES }, () => parts(reader, a, b, cut));
        const m = (k: string): string => median(samples.map((s) => s[k] ?? 0)).toFixed(1);
        const max = Math.max(...samples.map((s) => s['total'] ?? 0)).toFixed(1);
        rows.push([label, m('fold'), m('details'), m('compare'), m('json'), m('total'), max, (Number(m('bytes')) / 1024).toFixed(0)]);
      }
      for (const row of formatTable(rows)) print(row);
      print('');
      const busy: LoopSample[] = [];
      const idle: LoopSample[] = [];
      await withServer(f, async (url) => {
        await compareOverHttp(url, a, b); // starts the worker
        for (let i = 0; i < 3; i++) {
          const sample = await healthBehind(url, a, b);
          busy.push(sample);
          idle.push(await healthBehind(url, a, b, sample.compareMs));
        }
      });
      const row = (label: string, xs: number[]): string[] => [label, median([...xs]).toFixed(0), Math.max(...xs).toFixed(0)];
      for (const line of formatTable([
        ['GET /api/compare over HTTP, on the worker (3 times)', 'median ms', 'max ms'],
        row('the comparison', busy.map((r) => r.compareMs)),
        row('engine thread: longest event-loop delay meanwhile', busy.map((r) => r.maxLoopDelayMs)),
        row('engine thread: longest delay, as long with no comparison', idle.map((r) => r.maxLoopDelayMs)),
        row('slowest /api/health meanwhile', busy.map((r) => r.worstHealthMs)),
        row('slowest /api/health, as long with no comparison', idle.map((r) => r.worstHealthMs)),
      ])) print(line);
    } finally {
      f.close();
    }
  },
};
