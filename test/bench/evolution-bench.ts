// `npm run bench -- evolution`: weft replay (issue 22 part 1; docs/evolution.md "Replay"). A
// 1,000-step run (a chain of http steps, each reading the one before) recorded in a real SQLite
// store, replayed on its own version; and 100 recorded runs of a five-step workflow replayed as
// one batch (weft replay --runs) on a version that changes a condition, half of them fixed. The
// source runs are made in virtual time with scripted answers (runScenario with a store file), so
// their recordings are real attempts in a real log; nothing is called. Medians of several rounds.
// Targets (issue 22): within 1 s for the 1,000-step run, within 10 s for the 100 runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { Scenario } from '../../shared/scenario/scenario-schema.ts';
import { replayRuns } from '../../engine/evolution/replay-batch.ts';
import { replayRun } from '../../engine/evolution/replay-run.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';

const CHAIN = 1_000;
const BATCH = 100;
const ROUNDS = 5;
const BATCH_ROUNDS = 3;

/** N http steps in a chain, each given the output of the one before, then an end. */
function chain(n: number): Workflow {
  const steps = Array.from({ length: n }, (_, i) => ({
    id: `s${i + 1}`, name: `s${i + 1}`, kind: 'http' as const,
    ...(i === 0 ? {} : { input: `steps.s${i}.output` }),
    config: { method: 'POST', url: 'http://127.0.0.1:9/never-called', body: 'input' },
  }));
  const edges = Array.from({ length: n }, (_, i) => ({ id: `e${i + 1}`, from: `s${i + 1}`, to: i + 1 === n ? 'done' : `s${i + 2}`, on: ['succeeded' as const] }));
  return { format: 'weft/v1', id: 'long-chain', version: 1, name: 'Long chain', steps: [...steps, { id: 'done', name: 'done', kind: 'end' }], edges } as Workflow;
}

/** fetch → decide → save → done, or → rejected (failed) when `ok` does not hold. */
function recordUpdate(ok: string, version: number): Workflow {
  return {
    format: 'weft/v1', id: 'record-update', version, name: 'Record update',
    steps: [
      { id: 'fetch', name: 'fetch', kind: 'http', config: { method: 'GET', url: 'http://127.0.0.1:9/record' } },
      { id: 'decide', name: 'decide', kind: 'router', input: 'steps.fetch.output' },
      { id: 'save', name: 'save', kind: 'http', input: 'steps.fetch.output', config: { method: 'POST', url: 'http://127.0.0.1:9/save', body: 'input' } },
      { id: 'done', name: 'done', kind: 'end' },
      { id: 'rejected', name: 'rejected', kind: 'end', config: { status: 'failed' } },
    ],
    edges: [
      { id: 'fetched', from: 'fetch', to: 'decide', on: ['succeeded'] },
      { id: 'to_save', from: 'decide', to: 'save', when: ok },
      { id: 'to_rejected', from: 'decide', to: 'rejected', default: true },
      { id: 'saved', from: 'save', to: 'done', on: ['succeeded'] },
    ],
  } as Workflow;
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await f();
  return [out, performance.now() - t];
}

export const benchmark: Benchmark = {
  name: 'evolution',
  description: `weft replay: a ${CHAIN.toLocaleString('en')}-step run, and ${BATCH} recorded runs as one batch (medians)`,
  async run(print) {
    const dir = mkdtempSync(join(tmpdir(), 'weft-bench-evolution-'));
    const dbPath = join(dir, 'weft.db');
    try {
      const long = chain(CHAIN);
      const made = await runScenario(long, Scenario.parse({ name: 'source', input: { n: 1 }, steps: { s1: [{ succeed: { n: 1 }, takeMs: 5 }] }, expect: { state: 'succeeded' } }), { dbPath });
      if (!made.passed) throw new Error(`the ${CHAIN}-step source run did not succeed: ${made.error ?? JSON.stringify(made.assertions.filter((a) => !a.ok))}`);
      const v1 = recordUpdate('output.ok', 1);
      for (let k = 0; k < BATCH; k++) {
        const ok = k % 2 === 0;
        const r = await runScenario(v1, Scenario.parse({ name: `run ${k}`, seed: k + 2, input: { k }, steps: { fetch: [{ succeed: { id: k, ok, score: k }, takeMs: 20 }], save: [{ succeed: { saved: true }, takeMs: 10 }] }, expect: {} }), { dbPath });
        if (r.error !== undefined) throw new Error(r.error);
      }
      const db = openDatabase(dbPath, { mode: 'write' });
      const store = new Store(db);
      try {
        const longId = store.runPage({ workflow: 'long-chain', limit: 1 }).rows[0]?.id ?? '';
        const o = { clock: systemClock, random: systemRandom };
        const singles: number[] = [];
        for (let round = 0; round <= ROUNDS; round++) {
          const [r, ms] = await timed(() => replayRun(store, longId, { workflow: long, version: 1 }, o));
          if (r.verdict !== 'same') throw new Error(`the ${CHAIN}-step replay was ${r.verdict}, not same`);
          if (round > 0) singles.push(ms); // round 0 warms up
        }
        // v2 ends a record that is not ok well instead of failing: the failed half is fixed.
        const v2 = recordUpdate('output.ok or output.score < 0', 2);
        const fixedEnd = { ...v2, steps: v2.steps.map((s) => (s.id === 'rejected' ? { id: 'rejected', name: 'rejected', kind: 'end' as const } : s)) } as Workflow;
        const batches: number[] = [];
        let summary = '';
        for (let round = 0; round < BATCH_ROUNDS; round++) {
          const [b, ms] = await timed(() => replayRuns(store, { workflow: 'record-update', limit: BATCH }, { workflow: fixedEnd, file: 'fixed.weft.json' }, o));
          if (b.rows.length !== BATCH) throw new Error(`the batch replayed ${b.rows.length} runs, not ${BATCH}`);
          summary = b.summary;
          batches.push(ms);
        }
        const single = median(singles);
        const batch = median(batches);
        for (const line of formatTable([
          ['replay', 'rounds', 'median', 'target', 'met'],
          [`one run of ${CHAIN.toLocaleString('en')} steps`, String(ROUNDS), `${single.toFixed(0)} ms`, '1000 ms', single <= 1_000 ? 'yes' : 'NO'],
          [`${BATCH} runs (batch)`, String(BATCH_ROUNDS), `${batch.toFixed(0)} ms`, '10000 ms', batch <= 10_000 ? 'yes' : 'NO'],
        ])) print(line);
        print(`batch verdicts: ${summary}`);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
