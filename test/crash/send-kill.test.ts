// Crash test (issue 19, item 3): `weft send` stores its event in one commit and delivers it to the
// waiting run in the next. A send SIGKILLed between the two left the event stored and unconsumed
// for good: a stored event was matched only when a step started waiting, so a step already
// waiting never got it; `weft resume` did not deliver it, and sending it again answered
// `duplicate`. The window is made deterministic with the engine's test seam: WEFT_TEST_PAUSE_AT
// makes the send stop right after the event's commit and say so in a file, and the test kills it
// there. Then a later engine that owns the store (`weft resume`, `weft serve` starting, a later
// `weft send` of another event, or of the same one) delivers it, once, and the run goes on.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { killTree } from './process-tree.ts';
import { cliJson, startCli } from './weft-cli.ts';

const BIN = new URL('../../bin/weft.js', import.meta.url).pathname;

const flow = {
  format: 'weft/v1',
  id: 'pay',
  version: 1,
  name: 'Wait for the payment',
  input: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
  steps: [
    { id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.order' }, deadlineMs: 86_400_000 },
    { id: 'ship', kind: 'transform', config: { expression: '{"shipped": steps.paid.output.data.amount}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'paid', to: 'ship' },
    { id: 'e2', from: 'ship', to: 'done' },
  ],
};

interface Logged {
  type: string;
  data: Record<string, unknown>;
}

/** The run's log and the event's row, read as another process sees them. */
function observe(db: string, runId: string, eventId: string): { events: Logged[]; consumedBy: string | null | undefined; state: string | undefined } {
  const d = new Database(db, { readonly: true });
  try {
    const events = (d.prepare('SELECT type, data FROM events WHERE run_id = ? ORDER BY seq').all(runId) as { type: string; data: string }[]).map((e) => ({ type: e.type, data: JSON.parse(e.data) as Record<string, unknown> }));
    const row = d.prepare('SELECT consumed_run FROM external_events WHERE id = ?').get(eventId) as { consumed_run: string | null } | undefined;
    const state = (d.prepare('SELECT state FROM runs WHERE id = ?').get(runId) as { state: string } | undefined)?.state;
    return { events, consumedBy: row === undefined ? undefined : row.consumed_run, state };
  } finally {
    d.close();
  }
}

const received = (events: Logged[], id: string): number => events.filter((e) => e.type === 'event_received' && e.data['id'] === id).length;

async function poll(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

/** A store with run A (and B) waiting for their payments, and event E1 for A stored by a send killed before delivery. */
async function killedSend(name: string): Promise<{ dir: string; db: string; runA: string; runB: string }> {
  const dir = mkdtempSync(join(tmpdir(), `weft-send-kill-${name}-`));
  const db = join(dir, 'weft.db');
  writeFileSync(join(dir, 'pay.weft.json'), JSON.stringify(flow));
  const a = await cliJson<{ runId: string; state: string }>(['run', 'pay.weft.json', '--input', '{"order":"A17"}', '--db', db], dir, [3]);
  const b = await cliJson<{ runId: string; state: string }>(['run', 'pay.weft.json', '--input', '{"order":"B2"}', '--db', db], dir, [3]);
  expect([a.state, b.state]).toEqual(['waiting', 'waiting']);

  const paused = join(dir, 'paused-at');
  const send = startCli(['send', 'payment.received', '--key', 'A17', '--id', 'E1', '--data', '{"amount":42}', '--db', db], dir, {
    WEFT_TEST_PAUSE_AT: 'send:event-stored',
    WEFT_TEST_PAUSE_FILE: paused,
  });
  onTestFinished(() => void killTree(send.pid));
  let ended = false;
  void send.done.then(() => (ended = true));
  await poll(() => existsSync(paused) || ended);
  expect(ended, 'the send ended before its pause').toBe(false);
  expect(JSON.parse(readFileSync(paused, 'utf8'))).toMatchObject({ point: 'send:event-stored', pid: send.pid });
  // The window: the event is committed, unconsumed, and the run has not received it.
  const before = observe(db, a.runId, 'E1');
  expect(before.consumedBy).toBeNull();
  expect(received(before.events, 'E1')).toBe(0);
  expect(before.state).toBe('waiting');

  killTree(send.pid);
  const killed = await send.done;
  expect(killed.signal).toBe('SIGKILL');
  expect(observe(db, a.runId, 'E1').consumedBy).toBeNull();
  return { dir, db, runA: a.runId, runB: b.runId };
}

/**
 * Run A got E1 exactly once and went on to succeed; resending E1 answers duplicate and delivers
 * nothing (run A has ended, so the duplicate is not recorded in its log).
 */
async function expectDeliveredOnce(dir: string, db: string, runA: string): Promise<void> {
  const after = observe(db, runA, 'E1');
  expect(received(after.events, 'E1')).toBe(1);
  expect(after.consumedBy).toBe(runA);
  expect(after.state).toBe('succeeded');
  expect(after.events.find((e) => e.type === 'attempt_succeeded' && (e.data['output'] as { shipped?: number } | undefined)?.shipped !== undefined)?.data['output']).toEqual({ shipped: 42 });

  const again = await cliJson<{ id: string; status: string; runId?: string }>(['send', 'payment.received', '--key', 'A17', '--id', 'E1', '--data', '{"amount":42}', '--db', db], dir);
  expect(again).toMatchObject({ id: 'E1', status: 'duplicate', runId: runA });
  const final = observe(db, runA, 'E1');
  expect(received(final.events, 'E1')).toBe(1);
  expect(final.events.filter((e) => e.type === 'event_received')).toHaveLength(1);
}

describe('an event stored by a weft send killed before delivery', { timeout: 120_000 }, () => {
  it('is delivered once by weft resume', async () => {
    const { dir, db, runA, runB } = await killedSend('resume');
    const resumed = startCli(['resume', '--db', db, '--json'], dir);
    const r = await resumed.done;
    expect(r.code, r.stderr).toBe(3); // run B still waits for its own payment
    const states = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { runId: string; state: string });
    expect(states).toEqual(expect.arrayContaining([{ runId: runA, state: 'succeeded' }, { runId: runB, state: 'waiting' }]));
    await expectDeliveredOnce(dir, db, runA);
  });

  it('is delivered once by weft serve when it starts', async () => {
    const { dir, db, runA } = await killedSend('serve');
    const server = spawn(process.execPath, [BIN, 'serve', '--workspace', dir], { env: { ...process.env, WEFT_DB: db, WEFT_CONFIG_DIR: join(dir, 'config') }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((r) => server.once('exit', () => r()));
    onTestFinished(async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
      await exited;
    });
    await poll(() => observe(db, runA, 'E1').state === 'succeeded' || server.exitCode !== null);
    server.kill('SIGINT');
    await exited;
    await expectDeliveredOnce(dir, db, runA);
  });

  it('is delivered once by a later weft send of another event, before that one', async () => {
    const { dir, db, runA, runB } = await killedSend('other-send');
    const other = await cliJson<{ status: string; runId?: string; state?: string }>(['send', 'payment.received', '--key', 'B2', '--id', 'E2', '--data', '{"amount":7}', '--db', db], dir);
    expect(other).toMatchObject({ status: 'delivered', runId: runB, state: 'succeeded' });
    await expectDeliveredOnce(dir, db, runA);
  });

  it('is delivered once by sending it again, which still answers duplicate', async () => {
    const { dir, db, runA } = await killedSend('same-send');
    const again = await cliJson<{ status: string; runId?: string }>(['send', 'payment.received', '--key', 'A17', '--id', 'E1', '--data', '{"amount":42}', '--db', db], dir);
    expect(again).toMatchObject({ status: 'duplicate', runId: runA });
    const after = observe(db, runA, 'E1');
    expect(received(after.events, 'E1')).toBe(1);
    expect(after.state).toBe('succeeded');
  });
});
