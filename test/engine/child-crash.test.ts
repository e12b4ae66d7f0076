// A crash while a map or subworkflow step starts its child runs: the child's creation, its row in
// the `runs` projection and the parent's `child_started` link commit together, and recovery
// finds a child from the log even when its projection row is missing (a store written by an
// engine with the old defect), rebuilding the row. Deterministic: the crash lands right after
// the commit that holds the nth `child_started` (engine/scenario/crashable-store.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { CrashableStore } from '../../engine/scenario/crashable-store.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import type { SqliteDb as Db } from '../../engine/store/db.ts';
import { Store } from '../../engine/store/store.ts';
import { parseWorkflow, until } from './harness.ts';

const child = {
  format: 'weft/v1', id: 'double', version: 1, name: 'Double',
  input: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } },
  output: 'steps.twice.output',
  steps: [{ id: 'twice', kind: 'transform', config: { expression: 'input.n * 2' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'a', from: 'twice', to: 'done' }],
};

const parent = (kind: 'map' | 'subworkflow') => ({
  format: 'weft/v1', id: `parent-${kind}`, version: 1, name: 'Parent',
  input: { type: 'object', properties: { items: { type: 'array' } } },
  steps: [
    kind === 'map'
      ? { id: 'each', kind: 'map', config: { items: 'input.items', workflow: { id: 'double', version: 1 }, concurrency: 4 } }
      : { id: 'each', kind: 'subworkflow', input: 'input.items[0]', config: { workflow: { id: 'double', version: 1 } } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'each', to: 'done' }],
});

const items = Array.from({ length: 24 }, (_, n) => ({ n }));

let dbs: Db[] = [];
let engines: Engine[] = [];
afterEach(() => {
  for (const e of engines) e.close();
  for (const d of dbs) if (d.open) d.close();
  dbs = [];
  engines = [];
});

function engineOn(store: Store): Engine {
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: defaultExecutors() });
  engines.push(engine);
  return engine;
}

function open(path: string): Db {
  const db = openDatabase(path);
  dbs.push(db);
  return db;
}

/** Starts the parent on an engine that dies after the commit holding the nth child_started. */
async function crashWhileStartingChildren(kind: 'map' | 'subworkflow', nth: number): Promise<{ dbPath: string; dir: string; parentId: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-child-crash-'));
  writeFileSync(join(dir, 'double.weft.json'), JSON.stringify(child));
  const dbPath = join(dir, 'weft.db');
  const crashed: { engine?: Engine } = {};
  const store = new CrashableStore(open(dbPath), [], { afterEvent: 'child_started', nth }, () => crashed.engine?.close());
  const engine = engineOn(store);
  crashed.engine = engine;
  const workflow = parseWorkflow(parent(kind));
  const parentId = engine.startRun({ workflow, definitionHash: store.saveDefinition(workflow, Date.now()), input: { items }, workspaceDir: dir });
  await until(() => store.crashed, 'the crash');
  return { dbPath, dir, parentId };
}

const childIds = (store: Store, runId: string): string[] =>
  store.readEvents(runId).filter((e) => e.type === 'child_started').map((e) => (e.data as RunEvent<'child_started'>['data']).childRunId);

describe('a crash while children start', () => {
  for (const [kind, nth] of [['map', 1], ['map', 3], ['map', 9], ['subworkflow', 1]] as const) {
    it(`${kind}: every child logged by the crashed engine has its runs row (crash after child_started #${nth})`, async () => {
      const { dbPath, parentId } = await crashWhileStartingChildren(kind, nth);
      const store = new Store(open(dbPath));
      const logged = childIds(store, parentId);
      expect(logged.length).toBeGreaterThanOrEqual(1);
      for (const id of logged) expect(store.getRun(id), `runs row of child ${id}`).toBeDefined();
    });
  }

  it('a restarted engine finishes the map: every child ends and is listed, the parent succeeds', async () => {
    const { dbPath, parentId } = await crashWhileStartingChildren('map', 2);
    const store = new Store(open(dbPath));
    const engine = engineOn(store);
    engine.recover();
    await until(() => store.getRun(parentId)?.state === 'succeeded', 'the parent to succeed');
    const ids = childIds(store, parentId);
    expect(ids).toHaveLength(items.length);
    for (const id of ids) expect(store.getRun(id)?.state).toBe('succeeded');
  });
});

describe('recovery when a child has no projection row', () => {
  for (const kind of ['map', 'subworkflow'] as const) {
    it(`${kind}: finds the child from the log, rebuilds its row and finishes the parent`, async () => {
      const { dbPath, parentId } = await crashWhileStartingChildren(kind, 1);
      // What an engine with the defect left behind: the child's events, no row.
      const db = open(dbPath);
      const [orphan] = childIds(new Store(db), parentId);
      if (orphan === undefined) throw new Error('no child was logged');
      db.prepare('DELETE FROM runs WHERE id = ?').run(orphan);
      db.prepare('DELETE FROM step_states WHERE run_id = ?').run(orphan);
      const store = new Store(db);
      expect(store.getRun(orphan)).toBeUndefined();
      // A run named by its full id is found from the log even without its row (weft inspect CHILD).
      expect(store.resolveRunId(orphan)).toBe(orphan);
      const engine = engineOn(store);
      engine.recover();
      expect(store.getRun(orphan), 'the row is rebuilt when recovery starts').toBeDefined();
      await until(() => store.getRun(parentId)?.state === 'succeeded', 'the parent to succeed');
      expect(store.getRun(orphan)?.state).toBe('succeeded');
    });
  }

  it('resuming only the parent finds the orphaned child through catchUpChildren', async () => {
    const { dbPath, parentId } = await crashWhileStartingChildren('map', 1);
    const db = open(dbPath);
    const ids = childIds(new Store(db), parentId);
    for (const id of ids) db.prepare('DELETE FROM runs WHERE id = ?').run(id);
    const store = new Store(db);
    const engine = engineOn(store);
    engine.load(parentId);
    await until(() => store.getRun(parentId)?.state === 'succeeded', 'the parent to succeed');
    for (const id of childIds(store, parentId)) expect(store.getRun(id)?.state).toBe('succeeded');
  });
});
