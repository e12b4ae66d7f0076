// Crash test of a debug run: the real CLI is SIGKILLed (with the command it runs) while the run is
// paused at a breakpoint and a parallel branch's command is still at work, so the engine never
// gets to record anything more. `weft resume` finds the run still paused at that breakpoint, with
// its breakpoints and pins in the restart record; `weft step` and `weft continue` then work, the
// pinned step is settled with its pin (its command never runs), and the run succeeds.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { EventLogJson } from '../../shared/api/run-event-record.ts';
import { overrideEnv } from '../env-override.ts';
import { killTree } from './process-tree.ts';
import { runCli, startCli } from './weft-cli.ts';
import { waitUntil } from '../wait-until.ts';

const lines = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l !== '') : []);

it('keeps a debug run paused at its breakpoint, with its pins, across a kill -9 of the CLI', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-debug-crash-'));
  const db = join(dir, 'weft.db');
  const slowOut = join(dir, 'slow.txt');
  const pinnedOut = join(dir, 'pinned.txt');
  const file = join(dir, 'debug-crash.weft.json');
  writeFileSync(file, JSON.stringify({
    format: 'weft/v1',
    id: 'debug-crash',
    version: 1,
    name: 'Debug crash',
    steps: [
      { id: 'start', kind: 'transform', config: { expression: '{ "n": 1 }' } },
      // Sleeps long on its first call, so the kill lands while it runs; short when run again.
      { id: 'slow', kind: 'command', effect: 'idempotent', config: { argv: ['sh', '-c', `echo slow >> "$OUT"; if [ "$(wc -l < "$OUT")" -lt 2 ]; then sleep 30; fi; echo '{}'`], env: { OUT: slowOut } } },
      { id: 'check', kind: 'transform', config: { expression: 'steps.start.output' } },
      { id: 'expensive', kind: 'command', config: { argv: ['sh', '-c', `echo called >> "$OUT"; echo '{"real":true}'`], env: { OUT: pinnedOut } } },
      { id: 'gather', kind: 'join', config: { mode: 'all' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'a', from: 'start', to: 'slow' },
      { id: 'b', from: 'start', to: 'check' },
      { id: 'c', from: 'check', to: 'expensive' },
      { id: 'd', from: 'slow', to: 'gather' },
      { id: 'e', from: 'expensive', to: 'gather' },
      { id: 'f', from: 'gather', to: 'done' },
    ],
  }, null, 2));
  onTestFinished(overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') }));
  await runCli(['trust', dir], dir);

  // Paused at "check" while "slow" still runs: the CLI waits for it, and is killed there.
  const cli = startCli(['run', file, '--break', 'check', '--pin', 'expensive={"pinned":true}', '--db', db, '--json'], dir);
  await waitUntil(async () => {
    if (cli.child.exitCode !== null) throw new Error(`weft run exited early: ${(await cli.done).stderr}`);
    return lines(slowOut).length > 0;
  }, 'the slow step to start', { pollMs: 10 });
  const inspectJson = async (runId: string) => RunDetail.parse(JSON.parse((await runCli(['inspect', runId, '--db', db, '--json'], dir)).stdout));
  const { runs } = JSON.parse((await runCli(['runs', '--db', db, '--json'], dir)).stdout) as { runs: { id: string; state: string; debug?: true }[] };
  const runId = runs[0]?.id ?? '';
  const before = await inspectJson(runId);
  expect(before.run.state).toBe('paused');
  expect(killTree(cli.pid)).toBeGreaterThan(0);
  expect((await cli.done).signal).toBe('SIGKILL');
  expect(runs[0]?.debug).toBe(true);

  // Restart: the interrupted command is recorded, but nothing starts while the run is paused.
  const resumed = await runCli(['resume', '--db', db, '--json'], dir, [3]);
  expect(JSON.parse(resumed.stdout)).toEqual({ runId, state: 'paused' });
  const after = await inspectJson(runId);
  expect(after.run.debug).toEqual({ breakpoints: ['check'], pins: ['expensive'], pausedAt: { step: 'check', activation: 1 }, stepping: false });
  expect(after.run.permittedActions.map((a) => a.action)).toContain('step');
  expect(after.steps.find((s) => s.id === 'check')?.state).toBe('ready');
  expect(after.steps.find((s) => s.id === 'slow')?.attempts.map((a) => a.error?.code)).toEqual(['interrupted']);

  // Step: check runs (and slow is run again); the run pauses before the next start, the pinned step.
  const stepped = await runCli(['step', runId, '--db', db, '--json'], dir, [3]);
  expect(JSON.parse(stepped.stdout)).toEqual({ runId, state: 'paused' });
  expect((await inspectJson(runId)).run.debug?.pausedAt).toEqual({ step: 'expensive', activation: 1 });

  const continued = await runCli(['continue', runId, '--db', db, '--json'], dir);
  expect(JSON.parse(continued.stdout)).toEqual({ runId, state: 'succeeded' });
  expect(lines(pinnedOut)).toEqual([]); // the pinned command never ran
  expect(lines(slowOut)).toEqual(['slow', 'slow']);
  const final = await inspectJson(runId);
  expect(final.steps.find((s) => s.id === 'expensive')?.evidence).toMatchObject({ pinned: true });
  expect(final.steps.find((s) => s.id === 'gather')?.attempts.at(-1)?.output).toEqual({ slow: {}, expensive: { pinned: true } });
  const { events } = EventLogJson.parse(JSON.parse((await runCli(['events', runId, '--db', db, '--json'], dir)).stdout));
  expect(events.filter((e) => e.type === 'breakpoint_hit').map((e) => e.step)).toEqual(['check', 'expensive']);
});
