// What policies and cost accounting cost the engine (issue 23: under 5% of throughput): the same
// runs of no-op steps with and without governance, in interleaved rounds on the same machine
// (paired-rounds.ts). In the sequential case the interleaving goes down to single runs: each
// round opens a plain and a governed store side by side and runs one run on each in turn (the
// order alternating), timing each, so the machine's load, which drifts over tenths of a second,
// weighs on both alike. Blocks of 200 runs a side swung single rounds by ±30% on a busy machine;
// the concurrent cases interleave the same way, block by block (concurrentRound). Governed runs start under a workspace policy with a rule of every kind that
// applies to their steps (approvals aside: it is a start check, run once per run), a run budget,
// daily budgets (the admission check of each start) and a price table; every step declares a cost
// per call, so each attempt is checked against the policy and the budget before it starts and
// records its cost (and the day's spend) when it ends.
import type { StepKind } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Executor } from '../../engine/executors/executor.ts';
import { Policy } from '../../shared/policy/policy-schema.ts';
import { PriceTable } from '../../shared/cost/price-table.ts';
import { hashOf } from '../../engine/store/canonical-json.ts';
import { formatTable } from './benchmark.ts';
import type { Governance } from './engine-fixture.ts';
import { measureRuns, noopExecutor, type RunsSample } from './engine-measure.ts';
import { engineFixture } from './engine-fixture.ts';
import { chainWorkflow, governedWorkflow } from './engine-workflows.ts';
import { medianOf, pairedRatio, percentChange } from './paired-rounds.ts';

/**
 * Rounds per case. The concurrent cases' rounds spread from about -18% to +10% (a checkpoint or a
 * collection lands in one block of a pair), so the median of 9 moved by two points from run to
 * run of the same code, too coarse against a 5% target; 15 halve that spread of medians' runs.
 */
const ROUNDS = 15;

const POLICY = Policy.parse({
  format: 'weft-policy/v1',
  retries: [{ id: 'bench-retries', select: { tags: ['bench'] }, maxAttempts: 3 }],
  forbid: [
    { id: 'bench-no-auto-retry', action: 'automatic_retry', select: { effects: ['external'] } },
    { id: 'bench-no-skip', action: 'skip', select: { tags: ['bench'] } },
  ],
  escalation: [{ id: 'bench-escalate', select: { tags: ['bench'] }, afterFailures: 3, afterMs: 3_600_000, to: 'ops' }],
  agents: [{ id: 'bench-agents', providers: ['mock'] }],
  budgets: { perRun: 1_000, perWorkflowPerDay: { '*': 1_000_000 }, perWorkspacePerDay: 1_000_000 },
});

const PRICES = PriceTable.parse({ format: 'weft-prices/v1', currency: 'USD', prices: [{ provider: 'mock', model: 'mock', from: '2026-01-01', inputPerMillion: 1, outputPerMillion: 2 }] });

const GOVERNANCE: Governance = { policy: { hash: hashOf(POLICY), rules: POLICY }, prices: PRICES };

interface Pair {
  name: string;
  plain: Workflow;
  governed: Workflow;
  runs: number;
  mode: 'sequential' | 'concurrent';
  executors: Partial<Record<StepKind, Executor>>;
}

function pairs(): Pair[] {
  const command = chainWorkflow(10, 'command');
  const external = chainWorkflow(10, 'external');
  const noop = { command: noopExecutor };
  return [
    { name: 'no-op executor, 200 sequential', plain: command, governed: governedWorkflow(command), runs: 200, mode: 'sequential', executors: noop },
    { name: '  the same, nothing billed', plain: command, governed: governedWorkflow(command, false), runs: 200, mode: 'sequential', executors: noop },
    { name: 'no-op executor, 200 concurrent', plain: command, governed: governedWorkflow(command), runs: 200, mode: 'concurrent', executors: noop },
    { name: 'no-op external (fsync), 200 conc.', plain: external, governed: governedWorkflow(external), runs: 200, mode: 'concurrent', executors: noop },
  ];
}

type Variant = 'plain' | 'governed';

/** What a round's ratio is made of: the timed runs' wall time and steps. */
type Timed = Pick<RunsSample, 'ms' | 'steps'>;

/**
 * One round of the sequential case, interleaved run by run: `runs` runs on a plain store and as
 * many on a governed one, one after the other in turn (the first of each pair alternating), each
 * run timed from its start to its end. Each store's untimed first run saves its definition.
 */
async function interleavedRound(p: Pair): Promise<Map<Variant, Timed>> {
  const plain = engineFixture(p.executors);
  const governed = engineFixture(p.executors, undefined, GOVERNANCE);
  try {
    const side = { plain: { f: plain, w: p.plain, ms: 0 }, governed: { f: governed, w: p.governed, ms: 0 } };
    for (const s of Object.values(side)) await s.f.engine.settled(s.f.start(s.w));
    for (let k = 0; k < p.runs; k++) {
      for (const v of (k % 2 === 0 ? ['plain', 'governed'] : ['governed', 'plain']) as Variant[]) {
        const s = side[v];
        const t = performance.now();
        const state = await s.f.engine.settled(s.f.start(s.w));
        s.ms += performance.now() - t;
        if (state !== 'succeeded') throw new Error(`a run of ${s.w.id} ended ${state}`);
      }
    }
    const timed = (v: Variant): Timed => ({ ms: side[v].ms, steps: p.runs * side[v].w.steps.length });
    return new Map([['plain', timed('plain')], ['governed', timed('governed')]]);
  } finally {
    plain.close();
    governed.close();
  }
}

/** Blocks of concurrent runs a side in one round of a concurrent case. */
const BLOCKS = 4;

/**
 * One round of a concurrent case, interleaved block by block: a plain and a governed store side
 * by side, and BLOCKS times `runs` runs started at once on each in turn (the first alternating),
 * each block timed from its starts to its last end. One block a side swung single rounds by ±30%
 * (a collection, or the machine's load, lands on one block of a pair); summed over four pairs,
 * each round's ratio is steadier.
 */
async function concurrentRound(p: Pair): Promise<Map<Variant, Timed>> {
  const side = { plain: { f: engineFixture(p.executors), w: p.plain, ms: 0 }, governed: { f: engineFixture(p.executors, undefined, GOVERNANCE), w: p.governed, ms: 0 } };
  try {
    for (const s of Object.values(side)) await s.f.engine.settled(s.f.start(s.w));
    for (let k = 0; k < BLOCKS; k++) {
      for (const v of (k % 2 === 0 ? ['plain', 'governed'] : ['governed', 'plain']) as Variant[]) {
        const s = side[v];
        const t = performance.now();
        const ids = Array.from({ length: p.runs }, () => s.f.start(s.w));
        const states = await Promise.all(ids.map((id) => s.f.engine.settled(id)));
        s.ms += performance.now() - t;
        const failed = states.find((x) => x !== 'succeeded');
        if (failed !== undefined) throw new Error(`a run of ${s.w.id} ended ${failed}`);
      }
    }
    const timed = (v: Variant): Timed => ({ ms: side[v].ms, steps: BLOCKS * p.runs * side[v].w.steps.length });
    return new Map([['plain', timed('plain')], ['governed', timed('governed')]]);
  } finally {
    side.plain.f.close();
    side.governed.f.close();
  }
}

/** Prints the table: steps/s with and without governance, and the median of the per-round ratios. */
export async function governanceRows(print: (line: string) => void): Promise<void> {
  const rows = [['policies + cost accounting', 'steps/s plain', 'steps/s governed', 'throughput change', 'rounds (low…high)']];
  for (const p of pairs()) {
    const measure = (v: Variant): Promise<RunsSample> => (v === 'plain' ? measureRuns(p.plain, p.runs, p.mode, p.executors) : measureRuns(p.governed, p.runs, p.mode, p.executors, GOVERNANCE));
    await measure('plain'); // warm-up, untimed
    await measure('governed');
    const rounds: Map<Variant, Timed>[] = [];
    for (let k = 0; k < ROUNDS; k++) rounds.push(await (p.mode === 'concurrent' ? concurrentRound(p) : interleavedRound(p)));
    const perS = (s: Timed): number => (s.steps / s.ms) * 1000;
    const ratio = pairedRatio(rounds, 'plain', 'governed', perS);
    const plain = medianOf(rounds, 'plain', perS) ?? 0;
    const governed = medianOf(rounds, 'governed', perS) ?? 0;
    rows.push([
      p.name,
      Math.round(plain).toLocaleString('en-US'),
      Math.round(governed).toLocaleString('en-US'),
      ratio === undefined ? '–' : percentChange(ratio.median),
      ratio === undefined ? '–' : `${ratio.rounds} (${percentChange(ratio.low)}…${percentChange(ratio.high)})`,
    ]);
  }
  for (const line of formatTable(rows)) print(line);
  print(`governed: the runs start under a policy with a rule of each kind that selects their steps, a run budget and daily`);
  print(`budgets, and a price table; each step declares a cost per call. ${ROUNDS} rounds; sequential: a plain and a governed store`);
  print(`side by side, one run on each in turn; concurrent: the same, with ${BLOCKS} blocks of 200 runs started at once on each in turn. The change is the median`);
  print('of the per-round ratios governed/plain of steps/s (target: no worse than -5.0%). "Nothing billed": the same policy, budgets');
  print('and checks, but no step declares a cost, so no attempt records one: the policies\' share, the rest being the cost accounting\'s.');
}
