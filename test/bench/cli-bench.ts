// How long a user waits for `weft`, as separate processes: `weft --version`, `weft resume` of
// 1,000 parked runs and `weft run` of record-update against the fake API, each with the fresh
// bundle in dist/cli/ and through tsx (WEFT_FROM_SOURCE=1), against issue 20's targets; plus the
// floor under every command (Node alone, Node + loading the bundle). Each row gives the median
// wall time and the median CPU time (user + system) of the process: on a shared machine the
// wall time carries the others' load, the CPU time far less, so both are printed side by side.
// Reps of all cases and variants are interleaved, so a burst of load hits them alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freshBundlePath } from '../../bin/source-stamp.js';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { BUNDLE, CASES, ensureFreshBundle, NO_CACHE, NODE_ALONE, ROOT, TSX, type CliContext, type CliTarget, type Variant } from './cli-cases.ts';
import { killedStore } from './engine-measure.ts';
import { startFakeApiProcess } from './fake-api-process.ts';
import type { ProcessSample } from './process-timer.ts';

const REPS = 7;
const VARIANTS: readonly Variant[] = [BUNDLE, NO_CACHE, TSX];

const fixed = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(0));

/** A median against its target: met or missed, by how much. */
function verdict(wall: number | undefined, cpu: number | undefined, target: CliTarget | undefined, node: { wall: number | undefined; cpu: number | undefined }): string {
  if (target === undefined || wall === undefined) return '';
  if ('ms' in target) {
    // The target is wall time on an idle machine; the CPU time says what load took out of it.
    const cpuShare = cpu === undefined ? '' : `, cpu ${((cpu / target.ms) * 100).toFixed(0)}%`;
    return `${wall <= target.ms ? 'met' : 'missed'} (wall ${((wall / target.ms) * 100).toFixed(0)}%${cpuShare})`;
  }
  // A multiple of Node's own start: judged on CPU time, which load inflates least.
  if (cpu === undefined || node.cpu === undefined || node.wall === undefined) return '';
  const times = cpu / node.cpu;
  return `${times <= target.timesNode ? 'met' : 'missed'} (cpu ${times.toFixed(2)}× node, wall ${(wall / node.wall).toFixed(2)}×)`;
}

const targetText = (target: CliTarget | undefined): string => (target === undefined ? '' : 'ms' in target ? `${target.ms} ms` : `${target.timesNode}× node`);

export const benchmark: Benchmark = {
  name: 'cli',
  description: 'wall and CPU time of `weft` commands as new processes, bundle vs tsx, against the targets of issue 20',
  async run(print) {
    ensureFreshBundle(print);
    const load = loadavg()[0] ?? 0;
    const killed = await killedStore(1_000);
    const api = await startFakeApiProcess();
    const ctx: CliContext = { killed, apiUrl: api.url, tmp: mkdtempSync(join(tmpdir(), 'weft-bench-cli-')), runs: 0 };
    const samples = new Map<string, ProcessSample[]>();
    try {
      // Rep 0 is an untimed warm-up (page cache, tsx's compile cache, the run stores' schema).
      for (let rep = 0; rep <= REPS; rep++) {
        for (const c of CASES) {
          for (const v of c.perVariant ? VARIANTS : [BUNDLE]) {
            const sample = await c.measure(v, ctx);
            if (rep === 0) continue;
            const key = `${c.name}/${v.name}`;
            samples.set(key, [...(samples.get(key) ?? []), sample]);
          }
        }
      }
    } finally {
      await api.stop();
      rmSync(ctx.tmp, { recursive: true, force: true });
      rmSync(dirname(killed), { recursive: true, force: true });
    }
    if (freshBundlePath(ROOT) === undefined) throw new Error('a source changed while the bench ran: the "bundle" rows may have run through tsx; run it again');

    const stat = (c: string, v: Variant, pick: (s: ProcessSample) => number | undefined): number | undefined => {
      const values = (samples.get(`${c}/${v.name}`) ?? []).map(pick);
      return values.length === 0 || values.some((x) => x === undefined) ? undefined : median(values as number[]);
    };
    const node = { wall: stat(NODE_ALONE, BUNDLE, (s) => s.ms), cpu: stat(NODE_ALONE, BUNDLE, (s) => s.cpuMs) };
    const rows = [['case', 'target', 'bundle ms', 'fastest', 'cpu ms', 'bundle vs target', 'no cache cpu ms', 'tsx ms', 'cpu ms', 'tsx vs target']];
    for (const c of CASES) {
      const [b, t] = [BUNDLE, TSX].map((v) => stat(c.name, v, (s) => s.ms));
      const [bc, tc] = [BUNDLE, TSX].map((v) => stat(c.name, v, (s) => s.cpuMs));
      rows.push([
        c.name,
        targetText(c.target),
        fixed(b),
        fixed(Math.min(...(samples.get(`${c.name}/${BUNDLE.name}`) ?? []).map((s) => s.ms))),
        fixed(bc),
        verdict(b, bc, c.target, node),
        c.perVariant ? fixed(stat(c.name, NO_CACHE, (s) => s.cpuMs)) : '',
        c.perVariant ? fixed(t) : '',
        c.perVariant ? fixed(tc) : '',
        c.perVariant ? verdict(t, tc, c.target, node) : '',
      ]);
    }
    for (const line of formatTable(rows)) print(line);
    print(`median of ${REPS} reps after 1 warm-up, each a new process spawned by this one (wall time from spawn`);
    print('to exit); fastest: the quickest bundle rep. cpu ms: user + system CPU of the process (getrusage, reported');
    print('by the process at exit) and of any process it waited for; load on a shared machine inflates it far less than');
    print('wall time. Targets: ms are wall time on an idle machine; "× node" is CPU time over the first row\'s. bundle: dist/cli/, fresh;');
    print('tsx: WEFT_FROM_SOURCE=1. A command runs from dist/cli/weft.cjs with V8\'s code cache (bin/code-cache.js,');
    print('dist/cli/code-cache/; the warm-up writes it); no cache: the same with WEFT_CODE_CACHE_DIR= (compiled each start).');
    print('--version is answered by bin/weft.js from package.json, loading no bundle. The first two rows are the floor:');
    print('Node alone, and Node importing that entry without running a command. resume: the engine bench\'s store of 1,000 runs parked on a');
    print('timer (all still wait: exit 3); run: record-update with a real PUT against examples/fake-api.mjs');
    print(`in a child process, one store per variant. Load average (1 min): ${load.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after.`);
  },
};
