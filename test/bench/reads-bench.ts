// `npm run bench -- reads`: readers never stall the engine (issue 20, step 8). A store of 100,000
// finished runs and one run of about 100,000 events, served by the real `weft serve` (a child
// process), measured over HTTP: stats over the 100,000 runs, the detail of the big run, a page of
// 100 runs, and /api/health (p50 and p99) while the heaviest reads run beside it; then, in real
// Chromium on the built app (`npm run build` first), the run page of the big run from navigation
// to its first timeline bar. Each figure is printed beside its target.
//
// The store is built once and kept under the temp folder, keyed by STORE_VERSION (change it when
// what is built changes): the runs are made by the real engine once (a 3-step run, a loop run),
// and the 100,000 are copies of the 3-step run's log appended through the store's own API, in
// commits of 1,000 runs, so their projections and rollups are the store's own. WEFT_READS_BENCH_ROOT
// puts it elsewhere (a copy, for code whose migrations must not touch the shared one).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { parseWorkflow } from '../engine/harness.ts';
import { REPO_ROOT, startServe, type Served, type Workspace } from '../e2e/weft-serve.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';

const STORE_VERSION = 'reads-bench-v1';
const RUNS = 100_000;
const BIG_EVENTS = 100_000;
/** Events a loop pass writes (run-view-workspace.ts). */
const EVENTS_PER_PASS = 9;
/** How long the run page may take to show a bar before the figure is reported as not reached. */
const BAR_BOUND_MS = 60_000;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

const small: Workflow = parseWorkflow({
  format: 'weft/v1', id: 'bench-many', version: 1, name: 'three quick steps',
  steps: [
    { id: 'a', kind: 'transform', config: { expression: '{"n": 1}' } },
    { id: 'b', kind: 'transform', config: { expression: '{"n": 2}' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [{ id: 'a-b', from: 'a', to: 'b' }, { id: 'b-end', from: 'b', to: 'end' }],
});

const loop: Workflow = parseWorkflow({
  format: 'weft/v1', id: 'bench-big', version: 1, name: 'a loop of two transforms',
  steps: [
    { id: 'a', kind: 'transform', config: { expression: '1' } },
    { id: 'b', kind: 'transform', config: { expression: '1' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { id: 'a-b', from: 'a', to: 'b' },
    { id: 'again', from: 'b', to: 'a', maxTraversals: Math.round(BIG_EVENTS / EVENTS_PER_PASS) - 1 },
    { id: 'done', from: 'b', to: 'end', on: 'exhausted' },
  ],
});

interface BuiltStore {
  ws: Workspace;
  bigRun: string;
}

/** The store, made now or found from an earlier bench of the same STORE_VERSION. */
async function benchStore(print: (line: string) => void): Promise<BuiltStore> {
  const root = process.env['WEFT_READS_BENCH_ROOT'] ?? join(tmpdir(), `weft-${STORE_VERSION}`);
  const db = join(root, 'weft.db');
  const ready = join(root, 'ready.json');
  const dir = join(root, 'workspace');
  const ws: Workspace = { dir, db, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: db, WEFT_USER: 'bench' }, remove: () => rmSync(root, { recursive: true, force: true }) };
  if (existsSync(ready)) {
    const { bigRun } = JSON.parse(readFileSync(ready, 'utf8')) as { bigRun: string };
    print(`store: ${db} (cached, ${STORE_VERSION})`);
    return { ws, bigRun };
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const conn = openDatabase(db);
  const store = new Store(conn);
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: defaultExecutors() });
  const start = (w: Workflow): string => engine.startRun({ workflow: w, definitionHash: store.saveDefinition(w, Date.now()), input: {}, workspaceDir: dir });
  const template = start(small);
  if ((await engine.settled(template)) !== 'succeeded') throw new Error('reads bench: the template run did not succeed');
  const bigRun = start(loop);
  if ((await engine.settled(bigRun)) !== 'succeeded') throw new Error('reads bench: the big run did not succeed');
  engine.close();
  print(`made the template run and a run of ${store.readRunLog(bigRun).length.toLocaleString('en')} events with the engine in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const log = store.readRunLog(template);
  const row = store.getRun(template);
  if (row === undefined) throw new Error('reads bench: the template run has no row');
  const base = Date.now() - RUNS * 1000;
  for (let i = 1; i < RUNS; i++) {
    const runId = `bench-${String(i).padStart(6, '0')}`;
    const shift = base + i * 1000 - (log[0]?.at ?? 0);
    store.newRun(runId);
    for (const e of log) store.append({ runId, type: e.type, at: e.at + shift, step: e.step, activation: e.activation, attempt: e.attempt, data: e.data, reason: e.reason });
    store.setRunProjection({ ...row, id: runId, createdAt: row.createdAt + shift, updatedAt: row.updatedAt + shift });
    if (i % 1000 === 0) store.flush();
  }
  store.flush();
  conn.pragma('wal_checkpoint(TRUNCATE)');
  conn.close();
  writeFileSync(ready, JSON.stringify({ bigRun }));
  print(`made ${RUNS.toLocaleString('en')} runs of ${log.length} events through the store's API in ${((performance.now() - started) / 1000).toFixed(1)} s: ${db}`);
  return { ws, bigRun };
}

async function timed(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await r.text();
  const ms = performance.now() - t;
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${body.slice(0, 300)}`);
  return { ms, bytes: body.length };
}

async function samples(n: number, url: string, token: string): Promise<{ median: number; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  await timed(url, token); // warm-up
  for (let i = 0; i < n; i++) {
    const s = await timed(url, token);
    ms.push(s.ms);
    bytes = s.bytes;
  }
  return { median: median(ms), bytes };
}

const p99 = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
};

/** /api/health, one request after another, while `heavy` runs; its latencies. */
async function healthWhile(served: Served, heavy: () => Promise<unknown>): Promise<number[]> {
  let done = false;
  const load = heavy().finally(() => (done = true));
  const ms: number[] = [];
  while (!done) ms.push((await timed(`${served.url}/api/health`, served.token)).ms);
  await load;
  return ms;
}

/** The run page of `runId` in Chromium, from navigation to its first visible timeline bar. */
async function firstBar(browser: Browser, served: Served, runId: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await page.goto(served.address);
    await page.waitForLoadState('networkidle');
    const t = performance.now();
    await page.goto(`${served.url}/#/run/${runId}`);
    await page.locator('[data-testid="timeline-bar"]').first().waitFor({ state: 'visible', timeout: BAR_BOUND_MS });
    return performance.now() - t;
  } finally {
    await page.close();
  }
}

const ms = (x: number): string => `${x.toFixed(1)} ms`;
const verdict = (x: number, target: number): string => (x <= target ? 'met' : 'MISSED');

export const benchmark: Benchmark = {
  name: 'reads',
  description: 'readers never stall the engine: stats over 100,000 runs, a 100,000-event run\'s detail, a runs page, /api/health beside them, the run page\'s first timeline bar in Chromium',
  async run(print) {
    const { ws, bigRun } = await benchStore(print);
    if (!existsSync(join(REPO_ROOT, 'dist', 'app', 'index.html'))) print('the app is not built (npm run build): the Chromium figure will fail');
    const served = await startServe(ws);
    let browser: Browser | undefined;
    try {
      const stats = await samples(3, `${served.url}/api/stats/bench-many`, served.token);
      // The detail's first request is the cold one: the server and its read worker are up (the
      // stats above), but the worker has not read this run yet. The ones after it are warm: the
      // worker keeps the run's model and folds it forward from its last event.
      const detailCold = await timed(`${served.url}/api/runs/${bigRun}`, served.token);
      const detail = await samples(5, `${served.url}/api/runs/${bigRun}`, served.token);
      const page = await samples(20, `${served.url}/api/runs?limit=100`, served.token);
      const firstPage = JSON.parse(await (await fetch(`${served.url}/api/runs?limit=100`, { headers: { authorization: `Bearer ${served.token}` } })).text()) as { next: string };
      const later = await samples(20, `${served.url}/api/runs?limit=100&after=${encodeURIComponent(firstPage.next)}`, served.token);
      const events = await samples(5, `${served.url}/api/runs/${bigRun}/events?after=0&limit=1000`, served.token);
      // The heaviest reads, back to back, while /api/health is asked one request after another.
      const health = await healthWhile(served, async () => {
        await timed(`${served.url}/api/stats/bench-many`, served.token);
        await timed(`${served.url}/api/runs/${bigRun}`, served.token);
        await timed(`${served.url}/api/runs/${bigRun}/timeline`, served.token);
      });
      const healthP99 = p99(health);
      const rows: string[][] = [
        ['figure', 'measured', 'target', ''],
        [`/api/health p99 while the heaviest reads run (${health.length} requests; p50 ${ms(median([...health]))})`, ms(healthP99), '50 ms', verdict(healthP99, 50)],
        [`GET /api/stats over ${RUNS.toLocaleString('en')} runs (median of 3, ${(stats.bytes / 1e6).toFixed(1)} MB)`, ms(stats.median), '500 ms', verdict(stats.median, 500)],
        [`GET /api/runs/:id of the ~${BIG_EVENTS.toLocaleString('en')}-event run, cold: its first request (${(detailCold.bytes / 1e6).toFixed(2)} MB)`, ms(detailCold.ms), '200 ms', verdict(detailCold.ms, 200)],
        [`GET /api/runs/:id of the same run, warm (median of 5 after a warm-up, ${(detail.bytes / 1e6).toFixed(2)} MB)`, ms(detail.median), '200 ms', verdict(detail.median, 200)],
        ['GET /api/runs?limit=100, first page (median of 20)', ms(page.median), '10 ms', verdict(page.median, 10)],
        ['GET /api/runs?limit=100, a later page (median of 20)', ms(later.median), '10 ms', verdict(later.median, 10)],
        [`GET /api/runs/:id/events, first 1,000 (median of 5, ${(events.bytes / 1e6).toFixed(2)} MB)`, ms(events.median), '', ''],
      ];
      browser = await chromium.launch({ executablePath: process.env['WEFT_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
      const bars: number[] = [];
      try {
        for (let i = 0; i < 3; i++) bars.push(await firstBar(browser, served, bigRun));
        const bar = median([...bars]);
        rows.push([`run page to its first timeline bar, Chromium (median of 3: ${bars.map((b) => b.toFixed(0)).join(', ')} ms)`, ms(bar), '1000 ms', verdict(bar, 1000)]);
      } catch (e) {
        rows.push([`run page to its first timeline bar, Chromium: no bar within ${BAR_BOUND_MS / 1000} s (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`, '-', '1000 ms', 'MISSED']);
      }
      for (const line of formatTable(rows)) print(line);
      print('times are end to end over HTTP from this process (the server is a child process); the machine is shared: read them as rough.');
    } finally {
      await browser?.close();
      await served.stop();
    }
  },
};
