// Durable steps per second of the real Engine on a real SQLite file (WAL, synchronous=NORMAL),
// what one step costs the store, and how long a fresh engine takes to recover 1,000 runs left
// unfinished by a SIGKILLed process; set against what users would otherwise pick and Weft's
// targets (PEER_* and TARGET_* below).
// No-op steps are transforms with the expression `1` (they run inline in the scheduler's tick, so
// a run's steps share commits); rows with a no-op *executor* give every step its own attempt round
// trip and commit, like a per-step checkpoint; the command row adds a real process per step.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { StepKind } from '../../shared/definition/names.ts';
import type { Executor } from '../../engine/executors/executor.ts';
import { CommandExecutor } from '../../engine/executors/command-executor.ts';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { killedStore, measureCliResume, measureRecovery, measureRuns, noopExecutor, type RecoverySample, type RunsSample } from './engine-measure.ts';
import { chainWorkflow, fanOutWorkflow } from './engine-workflows.ts';
import { governanceRows } from './engine-governance.ts';
import { pgEngineRows } from './engine-pg.ts';

/**
 * The peer: LangGraph.js with its SQLite checkpointer, measured on this kind of machine (2 cores,
 * no-op steps); restart after kill -9 to the interrupted run done. Weft aims at 20 times the peer.
 */
const PEER_STEPS_PER_S = 1_000;
const PEER_MS_PER_STEP = 0.64;
const PEER_RESTART_MS: [number, number] = [500, 1_400];
const TARGET_STEPS_PER_S = 20_000;
const TARGET_MS_PER_STEP = 0.1;
const TARGET_RECOVERY_MS = 100;

const REPS = 5;
const RECOVERY_RUNS = 1_000;

interface Case {
  name: string;
  workflow: Workflow;
  runs: number;
  mode: 'sequential' | 'concurrent';
  executors?: Partial<Record<StepKind, Executor>>;
  reps?: number;
  /** Add a row to the cost-per-step table. */
  cost?: boolean;
}

const noop = { command: noopExecutor };

function cases(): Case[] {
  const transforms = chainWorkflow(10, 'transform');
  const idempotent = chainWorkflow(10, 'command');
  const external = chainWorkflow(10, 'external');
  return [
    { name: 'transform, 200 sequential runs', workflow: transforms, runs: 200, mode: 'sequential', cost: true },
    { name: 'transform, 200 concurrent runs', workflow: transforms, runs: 200, mode: 'concurrent' },
    { name: 'fan-out 100 + all join, 1 run', workflow: fanOutWorkflow(100), runs: 1, mode: 'sequential', cost: true },
    { name: 'no-op executor, 200 sequential', workflow: idempotent, runs: 200, mode: 'sequential', executors: noop, cost: true },
    { name: 'no-op executor, 200 concurrent', workflow: idempotent, runs: 200, mode: 'concurrent', executors: noop, cost: true },
    { name: 'no-op external (fsync), 20 seq.', workflow: external, runs: 20, mode: 'sequential', executors: noop, reps: 3, cost: true },
    { name: 'no-op external (fsync), 200 conc.', workflow: external, runs: 200, mode: 'concurrent', executors: noop, reps: 3, cost: true },
    { name: "command sh -c 'echo {}', 20 seq.", workflow: idempotent, runs: 20, mode: 'sequential', executors: { command: new CommandExecutor() }, reps: 3, cost: true },
  ];
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const times = (x: number): string => (x >= 10 ? `×${x.toFixed(0)}` : `×${x.toFixed(2)}`);
const fixed = (n: number, digits: number): string => n.toFixed(digits);

export const benchmark: Benchmark = {
  name: 'engine',
  description: 'durable steps/s, cost per step and recovery of the real Engine on a temp SQLite file',
  async run(print, options) {
    const throughput = [['case', 'steps', 'reps', 'median ms', 'steps/s', 'ms/step', 'vs LangGraph', 'of 20k/s', '<0.1 ms']];
    const cost = [['case', 'events', 'rows', 'data B', 'file B', 'commits', 'fsyncs']];
    for (const c of cases()) {
      const reps = c.reps ?? REPS;
      await measureRuns(c.workflow, Math.min(c.runs, 20), c.mode, c.executors); // warm-up, untimed
      const samples: RunsSample[] = [];
      for (let k = 0; k < reps; k++) samples.push(await measureRuns(c.workflow, c.runs, c.mode, c.executors));
      const ms = median(samples.map((s) => s.ms));
      const steps = samples[0]?.steps ?? 0;
      const perS = (steps / ms) * 1000;
      const perStep = ms / steps;
      throughput.push([c.name, int(steps), String(reps), fixed(ms, 1), int(perS), fixed(perStep, 4), `${times(perS / PEER_STEPS_PER_S)} (${times(PEER_MS_PER_STEP / perStep)})`, `${fixed((perS / TARGET_STEPS_PER_S) * 100, 0)}%`, perStep < TARGET_MS_PER_STEP ? 'met' : `${times(perStep / TARGET_MS_PER_STEP)} over`]);
      const last = samples[samples.length - 1];
      if (c.cost === true && last !== undefined) {
        const per = (n: number, d: number, digits = 2): string => fixed(n / d, digits);
        cost.push([
          c.name,
          per(last.store.events, last.store.steps),
          per(last.stats.rows, last.steps),
          per(last.store.dataBytes, last.store.steps, 0),
          per(last.store.fileBytes, last.store.steps, 0),
          per(last.stats.commits, last.steps, 3),
          per(last.stats.durableCommits, last.steps, 3),
        ]);
      }
    }
    for (const line of formatTable(throughput)) print(line);
    print('steps/s = steps of all timed runs / wall time, median of reps (after an untimed warm-up); 10-step runs are');
    print('9 work steps + end. vs LangGraph: steps/s against its ~1,000/s (and ms/step against its 0.64 ms);');
    print('target: 20,000 steps/s, under 0.1 ms/step. Fan-out: 103 steps (start, 100 branches, join, end).');
    print('');
    print('cost per step (last rep): events and data bytes in the log, rows written (events + projection');
    print('upserts), file bytes after a checkpoint, commits and fsyncs (durable commits) per step');
    for (const line of formatTable(cost)) print(line);
    print('With WAL and synchronous=NORMAL a normal commit does not fsync (the WAL is synced at checkpoints');
    print('only): a kill -9 loses nothing, a power cut may lose the last commits. A commit that records the');
    print('start of an external attempt runs with synchronous=FULL, i.e. one fsync of the WAL: "fsyncs".');
    print('transform/join/end run inline in the tick, so a whole run of them can share one commit.');
    print('');
    await governanceRows(print);
    print('');
    await recovery(print);
    if (options?.store === 'postgres') {
      print('');
      print('on PostgreSQL, several workers (docs/scale-out.md):');
      await pgEngineRows(print);
    }
  },
};

async function recovery(print: (line: string) => void): Promise<void> {
  const killed = await killedStore(RECOVERY_RUNS);
  try {
    await measureRecovery(killed); // warm-up, untimed
    const samples: RecoverySample[] = [];
    for (let k = 0; k < REPS; k++) samples.push(await measureRecovery(killed));
    // Runs parked on a timer were not interrupted: recovery re-arms their timers and writes no
    // engine_resumed event (only a stop that cut attempts short is recorded).
    const bad = samples.find((s) => s.runs !== RECOVERY_RUNS || s.resumedEvents !== 0);
    if (bad) throw new Error(`recovery found ${bad.runs} runs and wrote ${bad.resumedEvents} engine_resumed events, expected ${RECOVERY_RUNS} runs and none`);
    const cli: number[] = [];
    let cliNote = '';
    for (let k = 0; k < 3; k++) {
      const r = await measureCliResume(killed);
      cli.push(r.ms);
      cliNote = `exit ${r.code}, ${r.lines} runs printed`;
    }
    const row = (name: string, ms: number): string[] => [
      name,
      fixed(ms, 1),
      `${times(PEER_RESTART_MS[0] / ms)}-${times(PEER_RESTART_MS[1] / ms)}`,
      ms <= TARGET_RECOVERY_MS ? `met (${fixed((ms / TARGET_RECOVERY_MS) * 100, 0)}%)` : `missed (${times(ms / TARGET_RECOVERY_MS)})`,
    ];
    const rows = [
      ['recover 1,000 runs parked on a timer', 'median ms', 'vs peers 0.5-1.4 s', 'target 100 ms'],
      row('  open store + Engine', median(samples.map((s) => s.openMs))),
      row('  engine.recover() (fold, re-arm)', median(samples.map((s) => s.recoverMs))),
      row('  first tick (until idle)', median(samples.map((s) => s.tickMs))),
      row('  total, in process', median(samples.map((s) => s.totalMs))),
      row('weft resume (new process)', median(cli)),
    ];
    for (const line of formatTable(rows)) print(line);
    print(`${RECOVERY_RUNS} runs made by a child process that then SIGKILLed itself; each rep recovers a fresh`);
    print(`copy of that store (page cache warm). In-process: ${REPS} reps; weft resume: 3 reps (${cliNote}),`);
    print('which includes starting Node (and tsx, unless dist/cli/ is fresh): the time a user waits after a crash.');
  } finally {
    rmSync(dirname(killed), { recursive: true, force: true });
  }
}
