// Crash test of operator resolves (issue 19, item 2): the kill-restart workflow (stages of parallel
// branches; external steps whose `unknown` leads on like a success) run by the real CLI, SIGKILLed
// at random moments, and between lives an operator resolves the external steps a kill left
// `unknown` (`weft resolve RUN STEP --as succeeded`), as a person who checked would. A resolve
// re-decides everything after the step (path_reopened), so external steps after it that had
// already done their work are activated again: they must reuse their evidence (or carry their
// unknown), never do their effect a second time. Checked from the side-effect file, which every
// external attempt appends to before it sleeps: at most one line per external step.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { InspectRecord, LoggedEvent } from './crash-checks.ts';
import { crashWorkflow } from './crash-workflow.ts';
import { killTree } from './process-tree.ts';
import { between, seededRandom } from './seeded-random.ts';
import { storeWritten } from './store-activity.ts';
import { cliJson, runCli, startCli, type CliResult } from './weft-cli.ts';
import { overrideEnv } from '../env-override.ts';

const KILLS = 12;
/** As in kill-restart: short delays while the run is ahead of the kills, so they spread over it. */
const KILL_DELAY_MS: Record<'ahead' | 'behind', [number, number]> = { ahead: [0, 40], behind: [0, 400] };
const SEED = Number(process.env['WEFT_CRASH_SEED'] ?? Math.floor(Math.random() * 1e9));

const readLines = (path: string): string[] => {
  try {
    return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
  } catch {
    return [];
  }
};

it('repeats no external effect when operators resolve unknown steps between kill -9s of the engine', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-crash-resolve-'));
  const db = join(dir, 'weft.db');
  const idempotentOut = join(dir, 'idempotent-effects.txt');
  const externalOut = join(dir, 'external-effects.txt');
  // The run waits for a sign-off before its end, so the resolves come after the work that follows
  // the unknown steps. Seed 5 makes ext_1 lead straight to another external step, ext_2.
  const { workflow, idempotent, external } = crashWorkflow({ steps: 40, seed: 5, idempotentOut, externalOut, sleepMs: [90, 250], signOff: true });
  const first = external.find((x) => workflow.edges.some((e) => e.from === x && external.includes(e.to)));
  if (first === undefined) throw new Error('the generated workflow has no external step followed by another: pick another seed');
  const file = join(dir, 'crash-resolve.weft.json');
  writeFileSync(file, JSON.stringify(workflow, null, 2));
  onTestFinished(overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') }));
  await runCli(['trust', dir], dir);

  const random = seededRandom(SEED);
  let runId: string | undefined;
  let kills = 0;
  let last: CliResult | undefined;
  /**
   * One life: the run, a resume, or an operator's resolve (which drives the run on too), killed at
   * random while kills remain. The first life is killed as soon as `first` has done its effect,
   * so it is left unknown with its effect in place, and the external step after it runs next life.
   */
  const life = async (args: readonly string[]): Promise<CliResult> => {
    const cli = startCli([...args, '--db', db], dir);
    const done = new Set([...readLines(idempotentOut), ...readLines(externalOut)].map((l) => l.split(' ')[0])).size / (idempotent.length + external.length);
    if (kills === 0) {
      while (!readLines(externalOut).some((l) => l.startsWith(`${first} `)) && cli.child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
      if (cli.child.exitCode === null && cli.child.signalCode === null) killTree(cli.pid);
    } else if (kills < KILLS && (await storeWritten(db, cli.done))) {
      await new Promise((r) => setTimeout(r, between(random, ...(done > (kills + 1) / (KILLS + 2) ? KILL_DELAY_MS.ahead : KILL_DELAY_MS.behind))));
      if (cli.child.exitCode === null && cli.child.signalCode === null) killTree(cli.pid);
    }
    const r = await cli.done;
    if (r.signal === 'SIGKILL') kills++;
    if (runId === undefined) {
      const listed = await runCli(['runs', '--db', db, '--json'], dir, [0, 2]);
      runId = listed.code === 0 ? (JSON.parse(listed.stdout) as { runs: { id: string }[] }).runs[0]?.id : undefined;
    }
    return r;
  };
  const inspect = (): Promise<InspectRecord> => cliJson<InspectRecord>(['inspect', runId ?? '', '--db', db], dir);

  // Until the run waits for its sign-off: run, then resume after each kill.
  do last = await life(runId === undefined ? ['run', file, '--input', '{"order":7}', '--json'] : ['resume', '--json']);
  while (last.signal === 'SIGKILL' || runId === undefined || (await inspect()).run.state !== 'waiting');
  // The operator resolves what the kills left unknown, each in a life that may itself be killed.
  for (;;) {
    const unknown = (await inspect()).steps.find((x) => x.state === 'unknown' && external.includes(x.id));
    if (unknown === undefined) break;
    last = await life(['resolve', runId, unknown.id, '--as', 'succeeded', '--by', 'crash-ops', '--reason', 'found the effect in place']);
    if (last.signal === 'SIGKILL') last = await life(['resume', '--json']);
  }
  await runCli(['approve', runId, 'sign_off', '--by', 'crash-ops', '--db', db], dir, [0]);
  const record = await inspect();
  const { events } = await cliJson<{ events: LoggedEvent[] }>(['events', runId, '--db', db], dir);

  const problems: string[] = [];
  if (record.run.state !== 'succeeded') problems.push(`the run is ${record.run.state}, not succeeded`);
  const lines = readLines(externalOut);
  for (const id of external) {
    const mine = lines.filter((l) => l.split(' ')[0] === id);
    if (mine.length > 1) problems.push(`external step ${id}: its effect happened ${mine.length} times (${mine.join(', ')})`);
    // Nobody retried anything: a second attempt could only be a re-decision repeating the effect
    // (whether the first one's effect happened before its kill or not).
    const starts = events.filter((e) => e.type === 'attempt_started' && e.step === id);
    if (starts.length > 1) problems.push(`external step ${id} started ${starts.length} attempts (${starts.map((e) => `${e.activation}.${e.attempt}`).join(', ')}); only an operator's retry may repeat an external effect`);
  }
  const started = new Set(events.filter((e) => e.type === 'attempt_started').map((e) => `${e.step} ${e.activation} ${e.attempt}`));
  for (const line of [...lines, ...readLines(idempotentOut)]) if (!started.has(line)) problems.push(`side effect "${line}" happened, but the log never started that attempt`);
  events.forEach((e, k) => {
    if (e.seq !== k + 1) problems.push(`event #${k + 1} has seq ${e.seq}: the log has a gap`);
  });
  // Every external step a resolve re-decided after it had done its work was activated again
  // without doing it again: its evidence reused, or its unknown carried.
  const resolved = events.filter((e) => e.type === 'operator_action' && e.data['action'] === 'resolve');
  const resolves = events.filter((e) => e.type === 'path_reopened');
  const reactivated = events.filter((e) => (e.type === 'evidence_reused' || e.type === 'outcome_carried') && external.includes(e.step ?? ''));
  for (const r of resolves) {
    const superseded = ((r.data['steps'] ?? []) as { stepId: string; state: string }[]).filter((x) => external.includes(x.stepId) && x.state !== 'skipped');
    for (const x of superseded) {
      const again = events.find((e) => e.seq > r.seq && e.step === x.stepId && (e.type === 'evidence_reused' || e.type === 'outcome_carried' || e.type === 'attempt_started'));
      if (again?.type === 'attempt_started') problems.push(`external step ${x.stepId}, re-decided by the resolve at #${r.seq}, started a new attempt`);
    }
  }
  console.log(`kill-resolve (seed ${SEED}, WEFT_CRASH_SEED to repeat): ${kills} kills, ${resolved.length} resolves, ${reactivated.length} external steps activated again without repeating their effect; run ${record.run.state}`);
  if (problems.length > 0 || process.env['KEEP'] !== undefined) console.log(`store and side-effect files kept in ${dir}`);
  expect(problems).toEqual([]);
  expect(kills).toBeGreaterThan(0);
  expect(resolved.map((e) => e.step)).toContain(first); // the first kill left it unknown
  if (process.env['KEEP'] === undefined) rmSync(dir, { recursive: true, force: true });
}, 300_000);
