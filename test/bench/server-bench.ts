// `npm run bench -- server`: what the engine server costs. p50 latency of GET /api/runs/:id (the
// restart record) for a 1,000-step run, and the live stream's cost to the engine: RUNS concurrent
// runs go through a real server without a client and with one WebSocket client (in its own
// process, stream-client.mjs), in interleaved rounds (paired-rounds.ts). The app's case is a
// client on a run page: it subscribes to that one run and reads what the page reads; the aim is
// under 10%. The same subscription without the page's reads shows what the stream alone costs,
// and the clients subscribed to every run what that would cost.
//
// Two figures per case, each the median over rounds of (case / the no-client sample of the same
// round): the engine's rate (steps per second, wall clock) and the CPU time this process spends
// per 1,000 steps (the engine's thread, the server on it and the read worker's thread). On this
// shared machine the wall clock also moves with whatever else runs, and a client process takes
// cores from the engine; the CPU time says what serving the client costs the server itself.
// A run page's cost is small beside this machine's noise, so the bench also runs PAGES pages at once
// and divides their cost by PAGES. WEFT_BENCH_ROUNDS sets the rounds of the run-page cases (default 8).
import { loadavg } from 'node:os';
import { formatTable, median } from './benchmark.ts';
import type { Benchmark } from './benchmark.ts';
import { engineFixture } from './engine-fixture.ts';
import { chainWorkflow } from './engine-workflows.ts';
import { noopExecutor } from './engine-measure.ts';
import { medianOf, pairedRatio, percentChange, rotatedRounds, type RatioSummary } from './paired-rounds.ts';
import { PAGES, RUN_STEPS, RUNS, streamSample, TOKEN, withServer, type ClientMode, type StreamSample } from './stream-sample.ts';

/** Rounds of the run-page cases; the every-run cases, far from the target, get EVERY_RUN_ROUNDS. */
const ROUNDS = Math.max(1, Number(process.env.WEFT_BENCH_ROUNDS ?? 8) || 8);
const EVERY_RUN_ROUNDS = 3;
const TARGET = 0.1;

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

const rate = (s: StreamSample): number => (s.steps / s.engineMs) * 1000;
const serverCpu = (s: StreamSample): number => (s.serverCpuMs / s.steps) * 1000;
const clientCpu = (s: StreamSample): number => ((s.delivered?.cpuMs ?? Number.NaN) / s.steps) * 1000;
const fixed = (x: number | undefined, digits = 0): string => (x === undefined || !Number.isFinite(x) ? '' : x.toFixed(digits));
/** A loss of rate (1 - ratio) as a percentage, with the rounds' spread. */
const lossOf = (r: RatioSummary | undefined): string => (r === undefined ? '' : `${((1 - r.median) * 100).toFixed(1)}% (${((1 - r.high) * 100).toFixed(0)}..${((1 - r.low) * 100).toFixed(0)})`);
const costOf = (r: RatioSummary | undefined): string => (r === undefined ? '' : `${percentChange(r.median)} (${percentChange(r.low)}..${percentChange(r.high)})`);
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

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
    const loadBefore = load();
    const page = await rotatedRounds<ClientMode, StreamSample>(ROUNDS, ['none', 'page', 'watch', 'pages', 'watches'], streamSample);
    const everyRun = await rotatedRounds<ClientMode, StreamSample>(EVERY_RUN_ROUNDS, ['none', 'batch', 'single'], streamSample);
    const loadAfter = load();
    const all = [...page, ...everyRun];
    const samples = all.flatMap((round) => [...round.values()]);
    const resyncs = samples.reduce((n, s) => n + (s.delivered?.resyncs ?? 0), 0);
    const reads = samples.reduce((n, s) => n + (s.delivered?.reads ?? 0), 0);
    const row = (label: string, rounds: typeof page, mode: ClientMode, target = ''): string[] => {
      const events = medianOf(rounds, mode, (s) => s.delivered?.events ?? Number.NaN);
      const frames = medianOf(rounds, mode, (s) => s.delivered?.frames ?? Number.NaN);
      return [
        label,
        fixed(medianOf(rounds, mode, rate)),
        mode === 'none' ? '' : lossOf(pairedRatio(rounds, 'none', mode, rate)),
        target,
        fixed(medianOf(rounds, mode, serverCpu)),
        mode === 'none' ? '' : costOf(pairedRatio(rounds, 'none', mode, serverCpu)),
        mode === 'none' ? '' : fixed(medianOf(rounds, mode, clientCpu)),
        mode === 'none' ? '' : `${fixed(events)} / ${fixed(frames)}`,
      ];
    };
    print(`${RUNS} concurrent ${RUN_STEPS}-step runs (no-op command steps), through a real server; each client in its own process.`);
    for (const line of formatTable([
      ['case', 'steps/s', 'rate loss (range)', 'target', 'server CPU ms/1k steps', 'server CPU cost (range)', 'client CPU ms/1k steps', 'events / frames to client'],
      row(`no client (${ROUNDS} rounds)`, page, 'none'),
      row('one client on a run page (the app)', page, 'page', '< 10%'),
      row('the same subscription, no HTTP reads', page, 'watch'),
      row(`${PAGES} run pages at once (${PAGES} tabs)`, page, 'pages'),
      row(`their ${PAGES} subscriptions, no HTTP reads`, page, 'watches'),
      row(`no client (${EVERY_RUN_ROUNDS} rounds)`, everyRun, 'none'),
      row('one client on every run, batch frames', everyRun, 'batch'),
      row('one client on every run, a frame per event', everyRun, 'single'),
    ])) print(line);
    print('');
    print(`Each figure is a median over rounds. A round measures every case of its table part once, back to back, the order rotating from round to round,`);
    print(`and each case is compared with the no-client sample of its own round; no round is dropped. "rate loss" is 1 - (the case's steps/s / the`);
    print(`no-client steps/s); "server CPU cost" is the case's CPU ms per 1,000 steps of the server's process (engine thread, HTTP and WebSocket`);
    print(`server, read worker) against the no-client figure. The range is the lowest and highest of the rounds. On a shared machine the wall clock moves`);
    print(`with other load and the client's own CPU takes cores from the engine, so the CPU cost is the steadier figure of what serving the client costs.`);
    print(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after; resyncs asked of the clients: ${resyncs}; HTTP reads of the run-page clients: ${reads}.`);
    const pageRate = pairedRatio(page, 'none', 'page', rate);
    const pageCpu = pairedRatio(page, 'none', 'page', serverCpu);
    const met = (x: number): string => (x < TARGET ? 'met' : 'NOT met');
    if (pageRate !== undefined && pageCpu !== undefined) {
      print(`the app (a run page watching one of the ${RUNS} runs), against a target of under 10%: rate loss ${((1 - pageRate.median) * 100).toFixed(1)}% (${met(1 - pageRate.median)}), server CPU cost ${percentChange(pageCpu.median)} (${met(pageCpu.median - 1)}).`);
    }
    // One page's cost is small beside a busy machine's noise; PAGES pages make it PAGES times larger.
    const pagesRate = pairedRatio(page, 'none', 'pages', rate);
    const pagesCpu = pairedRatio(page, 'none', 'pages', serverCpu);
    if (pagesRate !== undefined && pagesCpu !== undefined) {
      const perRate = (1 - pagesRate.median) / PAGES;
      const perCpu = (pagesCpu.median - 1) / PAGES;
      print(`one run page, from ${PAGES} at once (their median / ${PAGES}, assuming each page costs the same): rate loss ${(perRate * 100).toFixed(1)}% (${met(perRate)}), server CPU cost ${percentChange(1 + perCpu)} (${met(perCpu)}).`);
    }
    const watchesRate = pairedRatio(page, 'none', 'watches', rate);
    const watchesCpu = pairedRatio(page, 'none', 'watches', serverCpu);
    if (watchesRate !== undefined && watchesCpu !== undefined) {
      print(`one run page's stream alone, from ${PAGES} subscriptions at once (/ ${PAGES}): rate loss ${((1 - watchesRate.median) * 100 / PAGES).toFixed(1)}%, server CPU cost ${percentChange(1 + (watchesCpu.median - 1) / PAGES)}.`);
    }
  },
};
