// The run commands through the real binary: exit codes and JSON shapes of the contract, and
// bad input to every command giving a clear message, exit 2, and an untouched store.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, WEFT_APPLICATION_ID } from '../../engine/store/migrations.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-run-'));
const db = join(dir, 'store.db');
const flow = (extra: Record<string, unknown> = {}) => ({
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
const file = join(dir, 'price.weft.json');
writeFileSync(file, JSON.stringify(flow(), null, 2));

const eventCount = (): number => {
  const d = new Database(db, { readonly: true });
  const n = (d.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  const ok = d.pragma('integrity_check', { simple: true });
  d.close();
  expect(ok).toBe('ok');
  return n;
};

let firstRun = '';

describe('weft run', () => {
  beforeAll(async () => {
    const r = await runWeft(['run', file, '--db', db, '--input', '{"amount": 5}', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { runId: string; state: string };
    expect(Object.keys(out)).toEqual(['runId', 'state']);
    expect(out.state).toBe('succeeded');
    firstRun = out.runId;
  });

  it('exits 3 when only waiting work remains and 1 when the run fails', async () => {
    const waiting = await runWeft(['run', file, '--db', db, '--input', '{"amount": 500}']);
    expect(waiting.code).toBe(3);
    expect(waiting.stdout).toMatch(/^run r[0-9a-z]+: waiting\n$/);
    const failed = await runWeft(['run', file, '--db', db, '--input', '{"amount": 5000}', '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ state: 'failed' });
  });

  it('inspect --json gives the restart record of the contract', async () => {
    const r = await runWeft(['inspect', firstRun.slice(0, 10), '--db', db, '--json']);
    expect(r.code).toBe(0);
    const record = JSON.parse(r.stdout) as { run: Record<string, unknown>; steps: Record<string, unknown>[] };
    // The restart record's fields come first, in order; RunDetail's additions follow them.
    expect(Object.keys(record.run).slice(0, 5)).toEqual(['id', 'workflowId', 'version', 'state', 'inputRevision']);
    expect(record.run).toMatchObject({ id: firstRun, workflowId: 'price', version: 1, state: 'succeeded', inputRevision: 1 });
    const tax = record.steps.find((s) => s['id'] === 'tax') as Record<string, unknown>;
    expect(Object.keys(tax).slice(0, 6)).toEqual(['id', 'state', 'activation', 'attempts', 'evidence', 'next']);
    expect(tax['evidence']).toMatchObject({ id: 'tax/1.1', attempt: 'tax/1.1', covers: { definitionVersion: 1, inputRevision: 1 } });
    const attempt = (tax['attempts'] as Record<string, unknown>[])[0] as Record<string, unknown>;
    for (const key of ['id', 'number', 'state', 'startedAt', 'endedAt', 'inputHash', 'variant', 'error']) expect(attempt).toHaveProperty(key);
    const human = await runWeft(['inspect', firstRun, '--db', db]);
    expect(human.stdout).toContain(`Run ${firstRun}: price v1, succeeded`);
    expect(human.stdout).toMatch(/pause\s+skipped/);
  });

  it('events --json lists the log in order', async () => {
    const r = await runWeft(['events', firstRun, '--db', db, '--json']);
    const { events } = JSON.parse(r.stdout) as { events: { seq: number; type: string }[] };
    expect(events[0]?.type).toBe('run_created');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const runs = JSON.parse((await runWeft(['runs', '--db', db, '--json'])).stdout) as { runs: { id: string }[] };
    expect(runs.runs.map((x) => x.id)).toContain(firstRun);
  });

  it('revise and fork continue from the log', async () => {
    const revised = await runWeft(['revise', firstRun, '--db', db, '--input', '{"amount": 7}', '--json']);
    expect(revised.code).toBe(0);
    const forked = await runWeft(['fork', firstRun, '--from', 'route', '--db', db, '--json']);
    expect(forked.code).toBe(0);
    const forkId = (JSON.parse(forked.stdout) as { runId: string }).runId;
    const events = JSON.parse((await runWeft(['events', forkId, '--db', db, '--json'])).stdout) as { events: { type: string; step: string | null }[] };
    expect(events.events.filter((e) => e.type === 'evidence_reused').map((e) => e.step)).toEqual(['tax']);
  });

  it('refuses a changed definition under a version that has run', async () => {
    const changed = join(dir, 'changed.weft.json');
    writeFileSync(changed, JSON.stringify(flow({ name: 'Price, renamed' })));
    const before = eventCount();
    const r = await runWeft(['run', changed, '--db', db, '--input', '{"amount": 5}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/version 1 has already run with different content.*bump "version" to 2/);
    expect(eventCount()).toBe(before);
  });
});

describe('bad input gets a clear error, exit 2, and leaves the store intact', () => {
  const notSqlite = join(dir, 'notes.db');
  writeFileSync(notSqlite, 'shopping list\n'.repeat(100));
  const newer = join(dir, 'newer.db');
  const n = new Database(newer);
  n.pragma(`application_id = ${WEFT_APPLICATION_ID}`);
  n.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
  n.close();

  it.each([
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
  ])('%s', async (_name, args, message) => {
    const resolved = args.map((a) => (a === 'r' ? firstRun : a));
    const before = eventCount();
    const r = await runWeft(resolved);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain(STACK_LINE);
    expect(eventCount()).toBe(before);
  });

  it.each([
    ['a database file that is not SQLite', notSqlite, /is not a Weft store \(not an SQLite database\)/],
    ['a database from a newer version', newer, /schema version \d+, newer than this Weft understands/],
  ])('%s', async (_name, path, message) => {
    const before = readFileSync(path);
    const commands = [['run', file, '--input', '{"amount": 5}'], ['runs'], ['inspect', 'x'], ['resume']];
    for (const r of await Promise.all(commands.map((args) => runWeft([...args, '--db', path])))) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(STACK_LINE);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
