// People and events through the real binary: tasks, approvals, rejections and events, and bad
// operator input (an event for no run, an approval of a step that is not waiting, an answer that
// fails the form) giving a clear error, exit 2 and an unchanged store.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-people-'));
const db = join(dir, 'store.db');
const file = join(dir, 'approval.weft.json');
writeFileSync(file, JSON.stringify({
  format: 'weft/v1', id: 'approval', version: 1, name: 'Approval',
  input: { type: 'object', properties: { orderId: { type: 'string' } } },
  steps: [
    { id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.orderId' }, deadlineMs: 86_400_000 },
    { id: 'review', kind: 'human', config: { task: 'approve', title: 'Ship order {{ input.orderId }}?', form: { type: 'object', required: ['carrier'], properties: { carrier: { enum: ['dhl', 'ups'] } } } }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
    { id: 'stopped', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'a', from: 'paid', to: 'review' },
    { id: 'b', from: 'review', to: 'done' },
    { id: 'c', from: 'review', to: 'stopped', on: ['rejected', 'expired'] },
    { id: 'd', from: 'paid', to: 'stopped', on: 'expired' },
  ],
}));

const count = (): number => {
  const d = new Database(db, { readonly: true });
  const n = (d.prepare('SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM external_events) AS n').get() as { n: number }).n;
  d.close();
  return n;
};

let runId = '';

describe('people and events through the CLI', () => {
  beforeAll(async () => {
    const r = await runWeft(['run', file, '--db', db, '--input', '{"orderId": "A17"}', '--json']);
    expect(r.code).toBe(3);
    runId = (JSON.parse(r.stdout) as { runId: string }).runId;
  });

  it('refuses bad input with exit 2 and changes nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['send', 'payment.refunded', '--key', 'A17', '--db', db], /no unfinished run has an event step for "payment.refunded"; nothing was stored/],
      [['approve', runId, 'review', '--db', db], /step "review" of run .* is blocked, not waiting for a person; nothing was changed/],
      [['approve', runId, 'nope', '--db', db], /has no step "nope"/],
      [['reject', runId, 'review', '--db', db], /--reason TEXT is required/],
      [['send', 'payment.received', '--db', db], /--key KEY is required/],
    ];
    for (const [args, message] of cases) {
      const before = count();
      const r = await runWeft(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(STACK_LINE);
      expect(count()).toBe(before);
    }
  });

  it('delivers an event, lists the task, refuses an answer that fails the form, then approves', async () => {
    const sent = await runWeft(['send', 'payment.received', '--key', 'A17', '--id', 'pay-1', '--data', '{"amount": 12}', '--db', db, '--json']);
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ id: 'pay-1', status: 'delivered', runId, state: 'waiting' });
    const again = await runWeft(['send', 'payment.received', '--key', 'A17', '--id', 'pay-1', '--db', db, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'duplicate' });
    const tasks = JSON.parse((await runWeft(['tasks', '--db', db, '--json'])).stdout) as { tasks: Record<string, unknown>[] };
    expect(tasks.tasks).toEqual([expect.objectContaining({ runId, stepId: 'review', task: 'approve', title: 'Ship order A17?' })]);
    const before = count();
    const bad = await runWeft(['approve', runId, 'review', '--data', '{"carrier": "pigeon"}', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/does not match the form of "review": \/carrier must be equal to one of the allowed values/);
    expect(count()).toBe(before);
    const ok = await runWeft(['approve', runId, 'review', '--data', '{"carrier": "dhl"}', '--by', 'ana', '--db', db, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ runId, state: 'succeeded' });
  });
});
