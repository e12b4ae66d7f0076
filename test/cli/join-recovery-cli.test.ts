// Recovery around an `all` join, through the real binary on real commands (issue 9, defect 1): a
// used-up verification escalates itself, not the join; a join is never retried or skipped while a
// branch it needs is missing (exit 2, the reason, nothing changed); and once the operator puts the
// missing branch right (retry or skip), the join goes on by itself and the notification runs once.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-join-'));
const db = join(dir, 'store.db');
const file = join(dir, 'transfer.weft.json');
// Every weft child of this file uses its own config folder; restored when the file is done.
const restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') });
afterAll(() => restoreEnv());

// Each command leaves a line in a log file of the workspace, so the test sees which effects happened.
const sh = (script: string) => ({ argv: ['sh', '-c', script] });
writeFileSync(file, JSON.stringify({
  format: 'weft/v1', id: 'transfer', version: 1, name: 'Transfer',
  steps: [
    { id: 'plan', kind: 'transform', config: { expression: '{"amount": 10}' } },
    { id: 'check_limits', kind: 'command', config: sh('test -f limits-ok && echo \'{"ok": true}\'') },
    { id: 'debit_source', kind: 'command', config: sh('echo debit >> effects.log; echo \'{"debited": true}\''), effect: 'external' },
    { id: 'credit_target', kind: 'command', config: sh('echo credit >> effects.log; echo \'{"credited": true}\''), effect: 'external', onExhausted: 'escalate' },
    {
      id: 'verify_debit', kind: 'command',
      config: sh('if [ -f ledger-ok ]; then echo \'{"found": true}\'; else echo \'{"found": false}\'; fi'),
      effect: 'none', output: { type: 'object', required: ['found'], properties: { found: { type: 'boolean' } } },
      accept: 'output.found = true', retry: { maxAttempts: 2, initialIntervalMs: 10 }, onExhausted: 'escalate',
    },
    { id: 'settle', kind: 'join', config: { mode: 'all' }, onExhausted: 'escalate' },
    { id: 'notify', kind: 'command', config: sh('echo notify >> effects.log; echo \'{"sent": true}\''), effect: 'external', onExhausted: 'escalate' },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'to_limits', from: 'plan', to: 'check_limits' },
    { id: 'to_debit', from: 'plan', to: 'debit_source' },
    { id: 'to_credit', from: 'plan', to: 'credit_target' },
    { id: 'debit_done', from: 'debit_source', to: 'verify_debit' },
    { id: 'debit_unknown', from: 'debit_source', to: 'verify_debit', on: 'unknown' },
    { id: 'limits_in', from: 'check_limits', to: 'settle' },
    { id: 'debit_in', from: 'verify_debit', to: 'settle' },
    { id: 'credit_in', from: 'credit_target', to: 'settle' },
    { id: 'to_notify', from: 'settle', to: 'notify' },
    { id: 'notified', from: 'notify', to: 'done' },
  ],
}));

const effects = (): string[] => (existsSync(join(dir, 'effects.log')) ? readFileSync(join(dir, 'effects.log'), 'utf8').trim().split('\n') : []);
const eventCount = (): number => {
  const d = new Database(db, { readonly: true });
  const n = (d.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  d.close();
  return n;
};
interface Inspected { run: { state: string }; steps: { id: string; state: string; attempts: unknown[]; next: string }[] }
const inspect = async (runId: string): Promise<Inspected> => JSON.parse((await runWeft(['inspect', runId, '--db', db, '--json'])).stdout) as Inspected;
const stepOf = (r: Inspected, id: string) => r.steps.find((s) => s.id === id);

/** A retry or skip of the join is refused with exit 2 and the missing branch named, and nothing changes. */
async function expectJoinRefused(runId: string, branch: string): Promise<void> {
  for (const args of [['retry', runId, 'settle'], ['skip', runId, 'settle', '--output', '{}', '--reason', 'just go on']]) {
    const before = eventCount();
    const r = await runWeft([...args, '--db', db]);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.stderr).toContain(`cannot ${args[0]} join "settle": branch "${branch}"`);
    expect(r.stderr).toContain('retry, resolve or skip the missing branch instead');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toContain(STACK_LINE);
    expect(eventCount()).toBe(before);
    expect(effects()).not.toContain('notify');
  }
}

let runId = '';

describe('recovering a failed all join through the CLI', () => {
  beforeAll(async () => {
    expect((await runWeft(['trust', dir])).code).toBe(0);
    const r = await runWeft(['run', file, '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    runId = (JSON.parse(r.stdout) as { runId: string; state: string }).runId;
  });

  it('escalates the used-up verification itself; the join waits for it and nothing is notified', async () => {
    const r = await inspect(runId);
    expect(r.run.state).toBe('needs_attention');
    expect(stepOf(r, 'verify_debit')).toMatchObject({ state: 'failed', next: expect.stringMatching(/^needs a person: acceptance_not_met/) });
    expect(stepOf(r, 'verify_debit')?.attempts).toHaveLength(2);
    expect(stepOf(r, 'settle')).toMatchObject({ state: 'blocked', next: expect.stringContaining('verify_debit (now failed)') });
    expect(stepOf(r, 'notify')?.attempts).toHaveLength(0);
    expect(effects().sort()).toEqual(['credit', 'debit']);
  });

  it('refuses to retry or skip the join while the debit is unverified', async () => {
    await expectJoinRefused(runId, 'verify_debit');
  });

  it('after the verification is retried and passes, the failed limits check fails the join, which still refuses a retry', async () => {
    writeFileSync(join(dir, 'ledger-ok'), '');
    const r = await runWeft(['retry', runId, 'verify_debit', '--by', 'ops', '--reason', 'the ledger caught up', '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    const after = await inspect(runId);
    expect(stepOf(after, 'verify_debit')?.state).toBe('succeeded');
    expect(stepOf(after, 'settle')).toMatchObject({ state: 'failed', next: expect.stringContaining('branch "check_limits" did not arrive') });
    await expectJoinRefused(runId, 'check_limits');
  });

  it('once the limits check is retried and passes, the failed join goes on by itself and notifies once', async () => {
    writeFileSync(join(dir, 'limits-ok'), '');
    const r = await runWeft(['retry', runId, 'check_limits', '--by', 'ops', '--reason', 'limits service back', '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ runId, state: 'succeeded' });
    const after = await inspect(runId);
    expect(stepOf(after, 'settle')?.state).toBe('succeeded');
    expect(stepOf(after, 'notify')?.attempts).toHaveLength(1);
    expect(effects().filter((e) => e === 'notify')).toEqual(['notify']);
    expect(effects().filter((e) => e === 'debit')).toEqual(['debit']);
  });
});
