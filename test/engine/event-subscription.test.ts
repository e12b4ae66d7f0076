// The live log across processes: this process runs an engine that commits events across 50 runs
// (a few at a time, so their events interleave), and records what its own subscription hears.
// Meanwhile a client in another process reads the store by cursor; it drops its connection at
// seeded random points, and its process leaves at others, and each time resumes from the last
// cursor it printed. The client must receive every event exactly once, in commit order: the
// exact list the subscription heard, whose cursors are 1..N.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../engine/runtime/virtual-clock.ts';
import { transformChain } from './transform-chain.ts';
import { harness, until, type Harness } from './harness.ts';

const READER = fileURLToPath(new URL('../fixtures/store/cursor-reader.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SEED = Number(process.env['WEFT_CURSOR_SEED'] ?? 20_260_510);

interface Seen {
  c: number;
  r: string;
  s: number;
}

const chain = (n: number) => transformChain('chain', n);

/** One reader process from `cursor`; `received` grows as its lines arrive. Resolves with how it left. */
function readFrom(dbPath: string, cursor: number, seed: number, quota: number, doneFile: string, received: Seen[]): Promise<'end' | 'quota'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', READER, dbPath, String(cursor), String(seed), String(quota), doneFile], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    let last = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('{')) received.push(JSON.parse(line) as Seen);
        else last = line;
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && (last === 'end' || last === 'quota')) resolve(last);
      else reject(new Error(`the reader exited with ${code} after "${last}" (seed ${SEED}):\n${stderr}`));
    });
  });
}

let h: Harness | undefined;
afterEach(() => h?.close());

describe('subscribing to the log from another process', () => {
  it('a client that disconnects at random points and resumes from its cursor gets every event of 50 runs once, in commit order', async () => {
    h = harness();
    const store = h.store;
    const doneFile = join(h.dir, 'writer-done');
    const committed: Seen[] = [];
    store.subscribe(({ cursor, event }) => committed.push({ c: cursor, r: event.runId, s: event.seq }));
    const workflow = chain(3);
    expect(await h.engine.settled(h.start(workflow).runId)).toBe('succeeded');
    h.engine.flush();

    const random = seededRandom(SEED);
    const received: Seen[] = [];
    const lastReceived = (): number => received[received.length - 1]?.c ?? 0;
    let processes = 0;
    const client = (async () => {
      for (;;) {
        processes += 1;
        const how = await readFrom(h.dbPath, lastReceived(), Math.floor(random() * 1e9), 40 + Math.floor(random() * 160), doneFile, received);
        if (how === 'end') return;
      }
    })();
    client.catch(() => undefined); // awaited below; a rejection must not go unhandled meanwhile

    let started = 1;
    while (started < 50) {
      const group = Math.min(1 + Math.floor(random() * 6), 50 - started);
      const ids = Array.from({ length: group }, () => h?.start(workflow).runId ?? '');
      started += group;
      for (const id of ids) expect(await h.engine.settled(id)).toBe('succeeded');
      h.engine.flush();
      // Sometimes let the client catch up to the end of the log, so it also waits for new commits.
      if (random() < 0.5) {
        const target = committed[committed.length - 1]?.c ?? 0;
        await until(() => lastReceived() >= target, `the reader to reach cursor ${target}`);
      }
    }
    writeFileSync(doneFile, '');
    await client;

    expect(new Set(committed.map((c) => c.r)).size).toBe(50);
    expect(committed.map((c) => c.c)).toEqual(committed.map((_, i) => i + 1));
    expect(received.length).toBe(committed.length);
    expect(received).toEqual(committed);
    // Each run's events arrive in its own seq order, 1..n.
    const seqs = new Map<string, number>();
    for (const e of received) {
      expect(e.s).toBe((seqs.get(e.r) ?? 0) + 1);
      seqs.set(e.r, e.s);
    }
    expect(processes).toBeGreaterThan(2);
  }, 180_000);
});
