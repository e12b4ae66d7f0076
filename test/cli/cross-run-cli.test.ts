// A command that drives one run must not cut short what it started in another (issue 9, defect
// 10), through the real binary and real command steps:
// - `weft send go --key A` delivers to run A and leaves run B alone, although B waits for `go`
//   too and its timer is due: B's external `charge` is not started by a command that would exit
//   when A settles (killing it halfway, so the next resume recorded it `unknown`);
// - `weft run` of a map waits for the child runs it started instead of exiting while their
//   commands run.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { runWeft } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-cross-run-'));
const charges = join(dir, 'charges.txt');
const env = { config: join(dir, 'config') };

interface LoggedEvent {
  type: string;
  step: string | null;
}

const weft = (args: string[]) => runWeft([...args, '--db', join(dir, 'weft.db')], dir);
const eventsOf = async (runId: string): Promise<LoggedEvent[]> => {
  const r = await weft(['events', runId, '--json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { events: LoggedEvent[] }).events;
};

let restoreEnv = (): void => undefined;
afterAll(() => restoreEnv());

beforeAll(async () => {
  restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: env.config });
  const t = await runWeft(['trust', dir], dir);
  expect(t.code).toBe(0);
});

describe('weft send for one run', () => {
  const file = join(dir, 'pay.weft.json');
  writeFileSync(file, JSON.stringify({
    format: 'weft/v1', id: 'pay', version: 1, name: 'pay',
    input: { type: 'object', required: ['key', 'until'], properties: { key: { type: 'string' }, until: { type: 'string' } } },
    steps: [
      { id: 'await_go', kind: 'event', config: { name: 'go', correlationKey: 'input.key' }, deadlineMs: 86_400_000 },
      { id: 'hold', kind: 'wait', config: { until: 'input.until' }, deadlineMs: 86_400_000 },
      { id: 'charge', kind: 'command', effect: 'external', onExhausted: 'escalate', input: '{"key": input.key}', config: { argv: ['sh', '-c', `read l; sleep 1; echo "$l" >> '${charges}'; echo '{"charged": true}'`] } },
      { id: 'after', kind: 'join', config: { mode: 'all' } },
      { id: 'done', kind: 'end' },
      { id: 'stuck', kind: 'end', config: { status: 'failed' } },
    ],
    edges: [
      { id: 'e', from: 'after', to: 'stuck', on: 'failed' },
      { id: 'a', from: 'hold', to: 'charge' },
      { id: 'b', from: 'charge', to: 'after' },
      { id: 'c', from: 'await_go', to: 'after' },
      { id: 'd', from: 'after', to: 'done' },
    ],
  }));

  it('delivers to A and starts nothing of B; B charges once, on its own resume, with no unknown attempt', async () => {
    // B's timer must come due after its own `weft run` has left it waiting, and before `send`.
    // How long that run takes is the machine's business: a B whose timer came due while its own
    // command still ran (its charge started) is set aside, and the next B gets twice the margin.
    let runB = '';
    let keyB = '';
    let soon = 0;
    for (let margin = 2_500; runB === ''; margin *= 2) {
      keyB = `B${margin}`;
      soon = Date.now() + margin;
      const b = await weft(['run', file, '--input', JSON.stringify({ key: keyB, until: new Date(soon).toISOString() }), '--json']);
      expect(b.code).toBe(3);
      const id = (JSON.parse(b.stdout) as { runId: string }).runId;
      if (!(await eventsOf(id)).some((e) => e.type === 'attempt_started' && e.step === 'charge')) runB = id;
    }
    const later = new Date(Date.now() + 86_000_000).toISOString();
    const a = await weft(['run', file, '--input', JSON.stringify({ key: 'A', until: later }), '--json']);
    expect(a.code).toBe(3);
    const runA = (JSON.parse(a.stdout) as { runId: string }).runId;
    // Wait until B's timer is due (the clock is the state here).
    while (Date.now() < soon + 50) await new Promise((r) => setTimeout(r, 50));

    const sent = await weft(['send', 'go', '--key', 'A', '--json']);
    expect(sent.stderr).toBe('');
    expect(JSON.parse(sent.stdout)).toMatchObject({ status: 'delivered', runId: runA, state: 'waiting' });
    const bAfterSend = await eventsOf(runB);
    const startedCharge = bAfterSend.filter((e) => e.type === 'attempt_started' && e.step === 'charge').length;
    const endedCharge = bAfterSend.filter((e) => e.step === 'charge' && ['attempt_succeeded', 'attempt_failed', 'attempt_unknown'].includes(e.type)).length;
    // The command started nothing of B (and so left nothing of B running).
    expect([startedCharge, endedCharge]).toEqual([0, 0]);

    const resumed = await weft(['resume', runB, '--json']);
    expect(resumed.stderr).toBe('');
    const bEvents = await eventsOf(runB);
    expect(bEvents.filter((e) => e.type === 'attempt_unknown' || e.type === 'engine_resumed')).toEqual([]);
    expect(bEvents.filter((e) => e.type === 'attempt_succeeded' && e.step === 'charge')).toHaveLength(1);
    expect(readFileSync(charges, 'utf8').trim().split('\n').filter((l) => l.includes(keyB))).toEqual([`{"key":"${keyB}"}`]);
  });
});

describe('weft run of a map', () => {
  it('waits for the child runs it started, and their commands, before it exits', async () => {
    const marks = join(dir, 'marks');
    writeFileSync(join(dir, 'mark.weft.json'), JSON.stringify({
      format: 'weft/v1', id: 'mark', version: 1, name: 'mark',
      input: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } },
      output: 'steps.work.output',
      steps: [
        { id: 'work', kind: 'command', effect: 'idempotent', input: 'input', config: { argv: ['sh', '-c', `read l; sleep 0.3; echo "$l" >> '${marks}'; echo "$l"`] } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'a', from: 'work', to: 'done' }],
    }));
    const file = join(dir, 'marks.weft.json');
    writeFileSync(file, JSON.stringify({
      format: 'weft/v1', id: 'marks', version: 1, name: 'marks',
      steps: [
        { id: 'each', kind: 'map', config: { items: '[{"n": 1}, {"n": 2}, {"n": 3}]', workflow: { id: 'mark', version: 1 }, concurrency: 2 } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'a', from: 'each', to: 'done' }],
    }));
    const r = await weft(['run', file, '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'succeeded' });
    expect(r.code).toBe(0);
    expect(existsSync(marks) ? readFileSync(marks, 'utf8').trim().split('\n').sort() : []).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });
});
