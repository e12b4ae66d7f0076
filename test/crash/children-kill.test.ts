// Crash test of child runs (issue 9, defect 7): a parent whose `map` step runs a child workflow
// over 24 items (6 at a time) and whose `subworkflow` step then runs one more child, driven by
// the real CLI, which is SIGKILLed (with everything it started) KILLS times while children start
// and finish. A killed life is followed by `weft resume`; when a parent has ended, the next life
// starts another parent, so every kill lands while some map or subworkflow is at work. Then:
// every run, parent or child, ends terminal; every run in the log has its row in `runs`; every
// child is inspectable (`weft inspect` and `weft events` find it) and linked to its parent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { openReadOnlyStore } from '../../engine/service/read-only-store.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { killTree } from './process-tree.ts';
import { between, seededRandom } from './seeded-random.ts';
import { storeWritten } from './store-activity.ts';
import { runCli, startCli } from './weft-cli.ts';
import { overrideEnv } from '../env-override.ts';

const KILLS = 30;
const ITEMS = 24;
/** Kill delay after the CLI's first store write, in ms: across the parent's whole life. */
const KILL_DELAY_MS: [number, number] = [0, 700];
const SEED = Number(process.env['WEFT_CRASH_SEED'] ?? Math.floor(Math.random() * 1e9));

const child = {
  format: 'weft/v1', id: 'square', version: 1, name: 'Square one item',
  input: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } },
  output: 'steps.square.output',
  steps: [
    { id: 'work', kind: 'command', effect: 'idempotent', input: 'input', config: { argv: ['sh', '-c', 'sleep 0.03; cat'] } },
    { id: 'square', kind: 'transform', config: { expression: 'steps.work.output.n * steps.work.output.n' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'work', to: 'square' }, { id: 'b', from: 'square', to: 'done' }],
};

const parent = {
  format: 'weft/v1', id: 'squares', version: 1, name: 'Squares',
  input: { type: 'object', required: ['items'], properties: { items: { type: 'array' } } },
  steps: [
    { id: 'each', kind: 'map', config: { items: 'input.items', workflow: { id: 'square', version: 1 }, concurrency: 6 } },
    { id: 'last', kind: 'subworkflow', input: '{"n": $count(steps.each.output)}', config: { workflow: { id: 'square', version: 1 } } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'each', to: 'last' }, { id: 'b', from: 'last', to: 'done' }],
};

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

it('kill -9 while a map and a subworkflow start and finish children orphans no child run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-children-crash-'));
  const db = join(dir, 'weft.db');
  writeFileSync(join(dir, 'square.weft.json'), JSON.stringify(child));
  const file = join(dir, 'squares.weft.json');
  writeFileSync(file, JSON.stringify(parent));
  onTestFinished(overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') }));
  await runCli(['trust', dir], dir);

  const random = seededRandom(SEED);
  const input = JSON.stringify({ items: Array.from({ length: ITEMS }, (_, n) => ({ n })) });
  let kills = 0;
  let lives = 0;
  let unfinished = false;
  while (kills < KILLS) {
    const cli = startCli(unfinished ? ['resume', '--db', db, '--json'] : ['run', file, '--input', input, '--db', db, '--json'], dir);
    lives++;
    if (await storeWritten(db, cli.done)) {
      await new Promise((r) => setTimeout(r, between(random, ...KILL_DELAY_MS)));
      if (cli.child.exitCode === null && cli.child.signalCode === null) killTree(cli.pid);
    }
    const r = await cli.done;
    if (r.signal === 'SIGKILL') {
      kills++;
      unfinished = true;
    } else {
      if (r.code !== 0) throw new Error(`life ${lives} exited with ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      unfinished = false; // the parents so far have ended: the next life starts another one
    }
  }
  // The last kill left work behind: one resume, not killed, must finish every run.
  const last = await runCli(['resume', '--db', db, '--json'], dir, [0]);

  const { store, close } = await openReadOnlyStore(db);
  const problems: string[] = [];
  let parents = 0;
  let children = 0;
  try {
    const logged = store.loggedRunIds();
    for (const id of logged) {
      const row = store.getRun(id);
      if (row === undefined) problems.push(`run ${id} has events but no row in runs`);
      else if (!TERMINAL.has(row.state)) problems.push(`run ${id} ended ${row.state}, not terminal`);
      const events = store.readEvents(id);
      const created = events[0] as RunEvent<'run_created'>;
      if (created.data.parent !== undefined) continue;
      parents++;
      if (row?.state !== 'succeeded') problems.push(`parent ${id} ended ${row?.state ?? 'without a row'}`);
      for (const e of events) {
        if (e.type !== 'child_started') continue;
        children++;
        const childId = (e.data as RunEvent<'child_started'>['data']).childRunId;
        const inspect = await weftInProcess(['inspect', childId, '--db', db, '--json'], dir);
        const listed = await weftInProcess(['events', childId, '--db', db, '--json'], dir);
        if (inspect.code !== 0 || listed.code !== 0) problems.push(`child ${childId}: inspect exit ${inspect.code}, events exit ${listed.code}: ${inspect.stderr}${listed.stderr}`);
        const record = inspect.code === 0 ? (JSON.parse(inspect.stdout) as { run: { state: string } }) : undefined;
        if (record !== undefined && record.run.state !== 'succeeded') problems.push(`child ${childId} is ${record.run.state}`);
        const link = store.readEvents(childId)[0] as RunEvent<'run_created'> | undefined;
        if (link?.data.parent?.runId !== id) problems.push(`child ${childId} does not name parent ${id}`);
      }
    }
  } finally {
    close();
  }
  console.log(`children-kill (seed ${SEED}, WEFT_CRASH_SEED to repeat): ${kills} kills in ${lives} lives; ${parents} parents, ${children} children started; last resume: ${last.stdout.trim().split('\n').length} line(s)`);
  if (problems.length > 0) console.log(`store kept in ${dir}`);
  expect(problems).toEqual([]);
  expect(parents).toBeGreaterThan(0);
  expect(children).toBeGreaterThanOrEqual(ITEMS + 1);
  rmSync(dir, { recursive: true, force: true });
}, 400_000);
