// Debug runs through the real binary: `weft run --break/--pin`, `weft continue` and `weft step`,
// the debug mark in `weft runs`, pinned events in `weft events` and pinned evidence in `weft
// inspect`; bad flags exit 2 with one line naming the flag, and leave no store behind (two here,
// every one in-process in debug-flags.test.ts). A command step appends to a file each time it is
// called, so a pinned step's calls are counted.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { EventLogJson } from '../../shared/api/run-event-record.ts';
import { RunsListJson } from '../../shared/api/run-summary.ts';
import { BAD_DEBUG_FLAGS, writeDebugFlow } from './debug-flow.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-debug-'));
const calls = join(dir, 'calls.txt');
const env = { WEFT_CONFIG_DIR: join(dir, 'config') };
const file = writeDebugFlow(dir, calls);

const weft = (args: string[], db = join(dir, 'weft.db')) => runWeft([...args, '--db', db], dir, { env });
const callCount = (): number => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter((l) => l !== '').length : 0);

beforeAll(async () => {
  expect((await runWeft(['trust', dir], dir, { env })).code).toBe(0);
});

describe('weft run --break, weft continue and weft step', () => {
  it('pauses at the breakpoint (exit 3), steps to the next start, continues to the end, and marks the run debug', async () => {
    const plain = await weft(['run', file, '--json']);
    expect(plain.code).toBe(0);
    const paused = await weft(['run', file, '--break', 'draft', '--json']);
    expect(paused.stderr).toBe('');
    expect(paused.code).toBe(3);
    const { runId, state } = JSON.parse(paused.stdout) as { runId: string; state: string };
    expect(state).toBe('paused');

    const listed = RunsListJson.parse(JSON.parse((await weft(['runs', '--json'])).stdout));
    expect(listed.runs.map((r) => [r.id, r.debug])).toEqual([[runId, true], [(JSON.parse(plain.stdout) as { runId: string }).runId, undefined]]);
    expect((await weft(['runs'])).stdout.split('\n')[0]).toMatch(/ {2}debug$/);

    const text = (await weft(['inspect', runId])).stdout;
    expect(text).toContain(`Run ${runId}: debug-flow v1, paused (debug run)`);
    expect(text).toContain('Debug: breakpoints draft; pinned none; paused at "draft" (activation 1)');
    const record = RunDetail.parse(JSON.parse((await weft(['inspect', runId, '--json'])).stdout));
    expect(record.run.permittedActions.map((a) => a.action)).toEqual(['resume', 'cancel', 'revise', 'continue', 'step']);

    const stepped = await weft(['step', runId, '--by', 'ana', '--json']);
    expect([stepped.code, stepped.stdout]).toEqual([3, `${JSON.stringify({ runId, state: 'paused' })}\n`]);
    expect(RunDetail.parse(JSON.parse((await weft(['inspect', runId, '--json'])).stdout)).run.debug?.pausedAt).toEqual({ step: 'review', activation: 1 });

    const continued = await weft(['continue', runId]);
    expect([continued.code, continued.stdout]).toEqual([0, `run ${runId}: succeeded\n`]);
    const events = (await weft(['events', runId])).stdout;
    expect(events).toMatch(/breakpoint_hit draft\/1: breakpoint at "draft"/);
    expect(events).toMatch(/breakpoint_hit review\/1: stepped to "review" \(weft step\)/);
    expect(events).toMatch(/debug_resumed review\/1: continued by /);

    const again = await weft(['continue', runId]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`weft continue: cannot continue run ${runId}: it is succeeded, not paused at a breakpoint (continue works on a debug run paused at a breakpoint); nothing was changed\n`);
    const notDebug = await weft(['step', (JSON.parse(plain.stdout) as { runId: string }).runId]);
    expect(notDebug.code).toBe(2);
    expect(notDebug.stderr).toContain('it is not a debug run (start one with weft run FILE --break STEP)');
  });
});

describe('weft run --pin', () => {
  it('settles the step with the pinned output without calling it, shown as pinned by events and inspect', async () => {
    const before = callCount();
    const r = await weft(['run', file, '--pin', 'research=@notes.json', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(callCount()).toBe(before); // the command never ran
    const { runId } = JSON.parse(r.stdout) as { runId: string };

    const log = EventLogJson.parse(JSON.parse((await weft(['events', runId, '--json'])).stdout));
    const pinned = log.events.filter((e) => 'pinned' in e.data && e.data.pinned === true).map((e) => `${e.type} ${e.step ?? ''}`);
    expect(pinned).toEqual(['attempt_started research', 'attempt_succeeded research']);
    expect((await weft(['events', runId])).stdout).toMatch(/attempt_started research\/1\.1 \[pinned\]: pinned output \(debug run\): the step is not called/);

    const detail = RunDetail.parse(JSON.parse((await weft(['inspect', runId, '--json'])).stdout));
    const research = detail.steps.find((s) => s.id === 'research');
    expect(research?.evidence).toMatchObject({ id: 'research/1.1', pinned: true });
    expect(research?.attempts[0]).toMatchObject({ pinned: true, output: { notes: ['pinned', 'notes'] }, evidence: { pinned: true } });
    expect(detail.steps.find((s) => s.id === 'review')?.evidence?.pinned).toBeUndefined();
    expect(detail.run.debug).toEqual({ breakpoints: [], pins: ['research'], pausedAt: null, stepping: false });
    expect((await weft(['inspect', runId])).stdout).toMatch(/research {2}succeeded; pinned evidence research\/1\.1/);

    // A fork of the debug run is a normal run: it calls the pinned step for real.
    const fork = await weft(['fork', runId, '--from', 'review', '--json']);
    expect(fork.code).toBe(0);
    expect(callCount()).toBe(before + 1);
    const forkId = (JSON.parse(fork.stdout) as { runId: string }).runId;
    const forked = RunDetail.parse(JSON.parse((await weft(['inspect', forkId, '--json'])).stdout));
    expect(forked.run.debug).toBeUndefined();
    expect(forked.steps.find((s) => s.id === 'research')?.evidence?.pinned).toBeUndefined();
    expect(forked.steps.find((s) => s.id === 'draft')?.attempts.at(-1)?.output).toEqual({ text: 'real' });
  });

  it('takes STEP=JSON inline too', async () => {
    const r = await weft(['run', file, '--pin', 'research={"notes":["inline"]}', '--break', 'review', '--json']);
    expect(r.code).toBe(3);
    const { runId } = JSON.parse(r.stdout) as { runId: string };
    const detail = RunDetail.parse(JSON.parse((await weft(['inspect', runId, '--json'])).stdout));
    expect(detail.steps.find((s) => s.id === 'draft')?.attempts[0]?.output).toEqual({ text: 'inline' });
  });
});

describe('bad debug flags', () => {
  // One refused before the workflow is read, and one refused against it; every case runs in-process
  // in debug-flags.test.ts.
  const cases = BAD_DEBUG_FLAGS.slice(0, 2);
  it.each(cases)('%s: exit 2, one line naming the flag, no store made', async (_name, flags, message) => {
    const db = join(dir, `bad-${flags.join('').replace(/\W/g, '')}.db`);
    const r = await weft(['run', file, ...flags], db);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain(STACK_LINE);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(db)).toBe(false);
  });
});
