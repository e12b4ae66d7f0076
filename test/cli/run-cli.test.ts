// The run commands through the real binary: exit codes and JSON shapes of the contract, and
// bad input to every command giving a clear message, exit 2, and an untouched store (one case of
// each kind here; every case in-process in run-bad-input.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { flow, runBadInputTests } from './run-bad-input.ts';
import { runWeft } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-run-'));
const db = join(dir, 'store.db');
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

// Bad input to every command: a clear message, exit 2, an untouched store (run-bad-input.ts): the
// first case of each table through the binary, every case in-process in run-bad-input.test.ts.
runBadInputTests((args, cwd) => runWeft(args, cwd), (cases) => cases.slice(0, 1));
