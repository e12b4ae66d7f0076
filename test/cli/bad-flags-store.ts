// The store both bad-flags files refuse odd flag values against: a workflow that parks on a
// person's review, one run of it, and `refused`, which checks a refusal the same way whichever
// way `weft` is called (main() in-process in bad-flags.test.ts, the binary in -cli.test.ts):
// exit 2, one line on stderr naming the problem, no stack, and nothing new in the store.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { STACK_LINE, type WeftResult } from './run-weft.ts';

/** One way of calling `weft` with argv in folder `cwd`. */
export type CallWeft = (args: readonly string[], cwd: string) => Promise<WeftResult>;

export interface BadFlagsStore {
  dir: string;
  db: string;
  /** The workflow file: a review (human), then an event, each with a deadline. */
  file: string;
  /** A folder where a flag wants a file. */
  folder: string;
  /** Each flag that takes JSON, with an argv that ends at it (its value still to come). */
  jsonFlags: [string, string[]][];
  /** Starts the run that `RUN` in an argv stands for (it parks on the review: exit 3). */
  start(): Promise<void>;
  /** That run's id, once started. */
  runId(): string;
  /** Calls `args` (with `RUN` replaced by the run's id) and checks it was refused as `message` says. */
  refused(args: readonly string[], message: RegExp): Promise<WeftResult>;
}

/** A fresh folder with the workflow and a store, calling `weft` through `call`. */
export function badFlagsStore(call: CallWeft): BadFlagsStore {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bad-flags-'));
  const db = join(dir, 'store.db');
  const file = join(dir, 'ship.weft.json');
  writeFileSync(
    file,
    JSON.stringify({
      format: 'weft/v1',
      id: 'ship',
      version: 1,
      name: 'Ship',
      steps: [
        { id: 'review', kind: 'human', config: { task: 'approve', title: 'Ship it?' }, deadlineMs: 86_400_000 },
        { id: 'arrive', kind: 'event', config: { name: 'arrived', correlationKey: '"k1"' }, deadlineMs: 86_400_000 },
        { id: 'done', kind: 'end' },
        { id: 'late', kind: 'end', config: { status: 'failed' } },
      ],
      edges: [
        { id: 'e1', from: 'review', to: 'arrive' },
        { id: 'e2', from: 'arrive', to: 'done' },
        { id: 'e3', from: 'review', to: 'late', on: 'expired' },
        { id: 'e4', from: 'arrive', to: 'late', on: 'expired' },
      ],
    }),
  );
  const folder = join(dir, 'a-folder');
  mkdirSync(folder);
  let run = '';
  const eventCount = (): number => {
    const d = new Database(db, { readonly: true });
    const n = (d.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n + (d.prepare('SELECT COUNT(*) AS n FROM external_events').get() as { n: number }).n;
    d.close();
    return n;
  };
  return {
    dir,
    db,
    file,
    folder,
    jsonFlags: [
      ['--data', ['approve', 'RUN', 'review', '--db', db, '--data']],
      ['--data', ['send', 'arrived', '--key', 'k1', '--db', db, '--data']],
      ['--output', ['skip', 'RUN', 'review', '--reason', 'x', '--db', db, '--output']],
      ['--evidence', ['resolve', 'RUN', 'review', '--as', 'succeeded', '--db', db, '--evidence']],
      ['--input', ['retry', 'RUN', 'review', '--db', db, '--input']],
      ['--input', ['revise', 'RUN', '--db', db, '--input']],
    ],
    async start() {
      const r = await call(['run', file, '--db', db, '--json'], dir);
      expect(r.code).toBe(3);
      run = (JSON.parse(r.stdout) as { runId: string }).runId;
    },
    runId: () => run,
    async refused(args, message) {
      const before = eventCount();
      const r = await call(args.map((a) => (a === 'RUN' ? run : a)), dir);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(STACK_LINE);
      expect(r.stderr.trimEnd().split('\n')[0]).toMatch(message);
      expect(r.code).toBe(2);
      expect(eventCount()).toBe(before);
      return r;
    },
  };
}
