// What the runs bench opens: a temporary trusted workspace whose runs the real engine made with
// `weft run` (so every log folds as the engine folds it): loops of two quick transform steps, sized
// to about 10,000 and 100,000 events (9 events a pass), and a run whose one step outputs 5 MB of
// JSON.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../e2e/weft-serve.ts';
import { benchWorkspace } from './bench-workspace.ts';

/** Events a loop pass writes: a and b activated, started, succeeded; three settles (one an exhausted check). */
const EVENTS_PER_PASS = 9;

export interface BenchRun {
  label: string;
  runId: string;
  /** Events wanted; the log's real length is read from the server (run.lastSeq). */
  events: number;
}

function loopWorkflow(id: string, passes: number): object {
  return {
    format: 'weft/v1',
    id,
    version: 1,
    name: `${passes} passes of two transforms`,
    steps: [
      { id: 'a', kind: 'transform', config: { expression: '1' } },
      { id: 'b', kind: 'transform', config: { expression: '1' } },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { id: 'a-b', from: 'a', to: 'b' },
      { id: 'again', from: 'b', to: 'a', maxTraversals: passes - 1 },
      { id: 'done', from: 'b', to: 'end', on: 'exhausted' },
    ],
  };
}

const BIG_OUTPUT = {
  format: 'weft/v1',
  id: 'bench-big-output',
  version: 1,
  name: 'a step that outputs its 5 MB input',
  steps: [
    { id: 'echo', kind: 'transform', config: { expression: 'input' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [{ id: 'echo-end', from: 'echo', to: 'end' }],
};

/** About `bytes` of JSON: orders with nested lines, as a real payload looks. */
export function bigPayload(bytes: number): unknown {
  const orders: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const order = { id: `order-${i}`, customer: { name: `Customer ${i % 977}`, email: `c${i}@example.com` }, total: (i * 37) % 10_000 / 100, lines: [{ sku: `sku-${i % 311}`, qty: 1 + (i % 5) }] };
    size += JSON.stringify(order).length + 1;
    orders.push(order);
  }
  return { orders };
}

/** The workspace with its runs made; prints a line per run as it is made (the 100,000 takes a while). */
export function runWorkspace(sizes: readonly number[], payloadBytes: number, print: (line: string) => void): { ws: Workspace; runs: BenchRun[]; bigOutput: BenchRun } {
  const { root, ws, weft } = benchWorkspace('runs');
  const dir = ws.dir;
  try {
    const run = (file: string, input?: string): string => {
      const out = JSON.parse(weft(['run', file, '--json', ...(input === undefined ? [] : ['--input', `@${input}`])])) as { runId: string; state: string };
      if (out.state !== 'succeeded') throw new Error(`runs bench: ${file} ended ${out.state}, not succeeded`);
      return out.runId;
    };
    const runs: BenchRun[] = [];
    for (const events of sizes) {
      const id = `bench-loop-${events}`;
      writeFileSync(join(dir, `${id}.weft.json`), JSON.stringify(loopWorkflow(id, Math.round(events / EVENTS_PER_PASS))));
      const started = performance.now();
      runs.push({ label: `loop of ${events.toLocaleString('en')} events`, runId: run(`${id}.weft.json`), events });
      print(`made ${id} with the engine in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    writeFileSync(join(dir, 'bench-big-output.weft.json'), JSON.stringify(BIG_OUTPUT));
    writeFileSync(join(root, 'payload.json'), JSON.stringify(bigPayload(payloadBytes)));
    const bigOutput = { label: `${(payloadBytes / 1e6).toFixed(0)} MB output`, runId: run('bench-big-output.weft.json', join(root, 'payload.json')), events: 0 };
    return { ws, runs, bigOutput };
  } catch (error) {
    ws.remove();
    throw error;
  }
}
