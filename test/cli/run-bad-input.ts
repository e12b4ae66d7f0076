// The bad input of the run commands (a clear error, exit 2, and an untouched store), shared by
// run-bad-input.test.ts, which runs every case through main() in-process, and run-cli.test.ts,
// which runs one of each kind through the real binary (its exit code and bytes on stderr).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, WEFT_APPLICATION_ID } from '../../engine/store/migrations.ts';
import { STACK_LINE, type WeftResult } from './run-weft.ts';

/** The workflow of the run tests: a price routed by size, the middle one waiting an hour. */
export const flow = (extra: Record<string, unknown> = {}) => ({
  format: 'weft/v1',
  id: 'price',
  version: 1,
  name: 'Price',
  input: { type: 'object', required: ['amount'], properties: { amount: { type: 'number' } } },
  steps: [
    { id: 'tax', kind: 'transform', config: { expression: 'input.amount * 0.2' } },
    { id: 'route', kind: 'router', input: '{"amount": input.amount}' },
    { id: 'pause', kind: 'wait', config: { durationMs: 3_600_000 } },
    { id: 'done', kind: 'end' },
    { id: 'refused', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'e1', from: 'tax', to: 'route' },
    { id: 'small', from: 'route', to: 'done', when: 'output.amount < 100' },
    { id: 'big', from: 'route', to: 'pause', when: 'output.amount < 1000' },
    { id: 'huge', from: 'route', to: 'refused', default: true },
    { id: 'e5', from: 'pause', to: 'done' },
  ],
  ...extra,
});

/** Runs `weft ARGS` with `cwd` as its folder: the real binary, or main() in-process. */
export type Weft = (args: string[], cwd: string) => Promise<WeftResult>;

/** Registers the bad-input tests; `pick` chooses which cases of each table run (all of them by default). */
export function runBadInputTests(weft: Weft, pick: <T>(cases: T[]) => T[] = (cases) => cases): void {
  const dir = mkdtempSync(join(tmpdir(), 'weft-run-bad-input-'));
  const db = join(dir, 'store.db');
  const file = join(dir, 'price.weft.json');
  writeFileSync(file, JSON.stringify(flow(), null, 2));
  let firstRun = '';

  const eventCount = (): number => {
    const d = new Database(db, { readonly: true });
    const n = (d.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
    const ok = d.pragma('integrity_check', { simple: true });
    d.close();
    expect(ok).toBe('ok');
    return n;
  };

  beforeAll(async () => {
    const r = await weft(['run', file, '--db', db, '--input', '{"amount": 5}', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    firstRun = (JSON.parse(r.stdout) as { runId: string }).runId;
  });

  describe('bad input gets a clear error, exit 2, and leaves the store intact', () => {
    const notSqlite = join(dir, 'notes.db');
    writeFileSync(notSqlite, 'shopping list\n'.repeat(100));
    const newer = join(dir, 'newer.db');
    const n = new Database(newer);
    n.pragma(`application_id = ${WEFT_APPLICATION_ID}`);
    n.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    n.close();

    it.each(pick<[string, string[], RegExp]>([
      ['unknown run id (inspect)', ['inspect', 'r-nope', '--db', db], /no run "r-nope" in this store/],
      ['unknown run id (events)', ['events', 'r-nope', '--db', db], /no run "r-nope"/],
      ['unknown run id (resume)', ['resume', 'r-nope', '--db', db], /no run "r-nope"/],
      ['unknown run id (revise)', ['revise', 'r-nope', '--db', db, '--input', '{}'], /no run "r-nope"/],
      ['unknown run id (fork)', ['fork', 'r-nope', '--from', 'tax', '--db', db], /no run "r-nope"/],
      ['malformed JSON input', ['run', file, '--db', db, '--input', '{"amount": 5,}'], /--input is not valid JSON at line 1, column 14/],
      ['malformed JSON input (revise)', ['revise', 'r', '--db', db, '--input', 'amount=5'], /not valid JSON at line 1, column 1/],
      ['input failing the input schema', ['run', file, '--db', db, '--input', '{"amount": "five"}'], /does not match the input schema of workflow "price": \/amount must be number/],
      ['missing input file', ['run', file, '--db', db, '--input', '@nope.json'], /cannot read the input file .*nope\.json: ENOENT/],
      ['an unknown fork step', ['fork', 'r', '--from', 'nope', '--db', db], /has no step "nope"; its steps are tax, route, pause, done, refused/],
    ]))('%s', async (_name, args, message) => {
      const resolved = args.map((a) => (a === 'r' ? firstRun : a));
      const before = eventCount();
      const r = await weft(resolved, dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(STACK_LINE);
      expect(eventCount()).toBe(before);
    });

    it.each(pick<[string, string, RegExp]>([
      ['a database file that is not SQLite', notSqlite, /is not a Weft store \(not an SQLite database\)/],
      ['a database from a newer version', newer, /schema version \d+, newer than this Weft understands/],
    ]))('%s', async (_name, path, message) => {
      const before = readFileSync(path);
      const commands = [['run', file, '--input', '{"amount": 5}'], ['runs'], ['inspect', 'x'], ['resume']];
      for (const r of await Promise.all(commands.map((args) => weft([...args, '--db', path], dir)))) {
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).not.toContain(STACK_LINE);
      }
      expect(readFileSync(path).equals(before)).toBe(true);
    });
  });
}
