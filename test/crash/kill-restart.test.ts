// Crash test of durability (every transition is stored before it is acted on, so a kill -9 at
// any instant loses no completed work and repeats no recorded effect): a 40-step workflow with
// parallel branches, idempotent and external command steps, run by the real CLI, which is
// SIGKILLed at random moments at least KILLS times and resumed each time until a resume finishes
// the run. Then: the run succeeded, every idempotent step completed exactly once (its effect may
// repeat), every external effect happened at most once and an interrupted one is `unknown`, no
// effect happened without a recorded start, the log is gapless and the fold and projections
// agree with it.
//
// What a kill kills: the CLI and everything it started. Command steps run in process groups of
// their own, so killing only the CLI would leave them running, finishing their effects after the
// engine is gone. We kill the whole tree (process-tree.ts) because the scenario is a machine
// stop, where nothing survives, and so that the test leaves no stray processes behind. An orphan
// finishing late would not break the checks (an external orphan still writes at most once and is
// still recorded unknown), but it would blur "what was running when the engine died". Note that a
// process kill does not lose the OS page cache, so this does not test fsync (synchronous=NORMAL).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { openReadOnlyStore } from '../../engine/service/read-only-store.ts';
import { checkCrashFacts, type InspectRecord, type LoggedEvent } from './crash-checks.ts';
import { crashWorkflow } from './crash-workflow.ts';
import { killTree } from './process-tree.ts';
import { between, seededRandom } from './seeded-random.ts';
import { storeWritten } from './store-activity.ts';
import { cliJson, runCli, startCli, type CliResult } from './weft-cli.ts';
import { overrideEnv } from '../env-override.ts';

const KILLS = 22;
/**
 * Kill delay after the CLI's first write to the store (taking the lease), in ms: random, from the
 * short range while the run is ahead of schedule, so that the kills spread over the whole run and
 * the run does not finish before KILLS of them have landed. The short range is short because the
 * bundled CLI starts in a tenth of a second: a life given 120 ms could finish a quarter of the run.
 */
const KILL_DELAY_MS: Record<'ahead' | 'behind', [number, number]> = { ahead: [0, 30], behind: [0, 500] };
const SEED = Number(process.env['WEFT_CRASH_SEED'] ?? Math.floor(Math.random() * 1e9));

interface Life {
  command: 'run' | 'resume';
  delayMs: number | undefined;
  /** Share of command steps whose effect had started before this life began. */
  done: number;
  killed: boolean;
  processes: number;
}

const readLines = (path: string): string[] => {
  try {
    return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
  } catch {
    return [];
  }
};

it('survives repeated kill -9 of the engine and its commands without losing or repeating recorded work', async () => {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'weft-crash-'));
  const db = join(dir, 'weft.db');
  const idempotentOut = join(dir, 'idempotent-effects.txt');
  const externalOut = join(dir, 'external-effects.txt');
  const { workflow, idempotent, external } = crashWorkflow({ steps: 40, seed: 1, idempotentOut, externalOut, sleepMs: [90, 280] });
  const file = join(dir, 'crash-fan-out.weft.json');
  writeFileSync(file, JSON.stringify(workflow, null, 2));

  // Precondition: the generated workflow is valid (warnings, such as absent compensations, are fine).
  const validated = await cliJson<{ files: { valid: boolean; diagnostics: { severity: string; code: string; message: string }[] }[] }>(['validate', file], dir);
  expect(validated.files[0]?.diagnostics.filter((d) => d.severity === 'error') ?? ['no report']).toEqual([]);
  expect(workflow.steps).toHaveLength(40);
  // The workflow runs commands: its workspace must be trusted (in a config folder of this test's own).
  onTestFinished(overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') }));
  await runCli(['trust', dir], dir);

  const random = seededRandom(SEED);
  const lives: Life[] = [];
  let runId: string | undefined;
  let last: CliResult | undefined;
  for (;;) {
    const command = runId === undefined ? 'run' : 'resume';
    const args = command === 'run' ? ['run', file, '--input', '{"order":7}', '--db', db, '--json'] : ['resume', '--db', db, '--json'];
    const cli = startCli(args, dir);
    const kills = lives.filter((l) => l.killed).length;
    // Progress: the share of command steps whose effect has started at least once.
    const done = new Set([...readLines(idempotentOut), ...readLines(externalOut)].map((l) => l.split(' ')[0])).size / (idempotent.length + external.length);
    if (kills >= KILLS) {
      last = await cli.done;
      lives.push({ command, delayMs: undefined, done, killed: false, processes: 0 });
      break;
    }
    const delayMs = between(random, ...(done > (kills + 1) / (KILLS + 2) ? KILL_DELAY_MS.ahead : KILL_DELAY_MS.behind));
    let processes = 0;
    if (await storeWritten(db, cli.done)) {
      await new Promise((r) => setTimeout(r, delayMs));
      if (cli.child.exitCode === null && cli.child.signalCode === null) processes = killTree(cli.pid);
    }
    last = await cli.done;
    const killed = last.signal === 'SIGKILL';
    lives.push({ command, delayMs, done, killed, processes });
    if (!killed) break; // it finished on its own before the kill
    if (runId === undefined) {
      // Killed before it printed the run id: find the run, if it was created at all.
      const listed = await runCli(['runs', '--db', db, '--json'], dir, [0, 2]);
      runId = listed.code === 0 ? (JSON.parse(listed.stdout) as { runs: { id: string }[] }).runs[0]?.id : undefined;
    }
  }
  if (last.code !== 0) throw new Error(`the last ${lives[lives.length - 1]?.command} exited with ${last.code ?? last.signal}\nstdout: ${last.stdout}\nstderr: ${last.stderr}`);
  const printed = last.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { runId: string; state: string });
  runId ??= printed[0]?.runId;
  if (runId === undefined) throw new Error('no run was created');

  const [{ events }, inspect, { runs }] = await Promise.all([
    cliJson<{ events: LoggedEvent[] }>(['events', runId, '--db', db], dir),
    cliJson<InspectRecord>(['inspect', runId, '--db', db], dir),
    cliJson<{ runs: { id: string; state: string }[] }>(['runs', '--db', db], dir),
  ]);
  const store = await openReadOnlyStore(db);
  const stepRows = store.store.stepProjections(runId);
  store.close();

  const { problems, summary } = checkCrashFacts({
    events,
    inspect,
    listedState: runs.find((r) => r.id === runId)?.state,
    stepRows,
    idempotent,
    external,
    idempotentLines: readLines(idempotentOut),
    externalLines: readLines(externalOut),
  });

  const killed = lives.filter((l) => l.killed);
  console.log(
    [
      `kill-restart (seed ${SEED}, WEFT_CRASH_SEED to repeat the kill delays): ${killed.length} kills landed in ${lives.length} process lives, ` +
        `${killed.filter((l) => l.processes > 0).length} of them with child processes running (${killed.reduce((n, l) => n + l.processes, 0)} processes killed)`,
      `kill delays after the first store write (ms): ${killed.map((l) => l.delayMs).join(', ')}`,
      `progress when each killed life began (% of command steps started): ${killed.map((l) => Math.round(l.done * 100)).join(', ')}`,
      `${summary.resumes} engine_resumed events, ${summary.interrupted} attempts interrupted: ` +
        `${summary.idempotentRerun} idempotent steps ran more than once (${summary.repeatedIdempotentEffects} repeated effects), ` +
        `${summary.externalUnknown} external steps left unknown (${summary.externalUnknownWithEffect} of them after their effect happened)`,
      `${events.length} events; run ${runId} ${inspect.run.state}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ].join('\n'),
  );

  const finalState = printed.find((p) => p.runId === runId)?.state;
  if (finalState !== undefined && finalState !== 'succeeded') problems.push(`the last ${lives[lives.length - 1]?.command} printed ${finalState}`);
  if (problems.length > 0) console.log(`store and side-effect files kept in ${dir}`);
  expect(problems).toEqual([]);
  expect(killed.length).toBeGreaterThanOrEqual(KILLS);
  expect(summary.interrupted).toBeGreaterThan(0);
  rmSync(dir, { recursive: true, force: true });
});
