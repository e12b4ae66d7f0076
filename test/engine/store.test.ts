// The store on real SQLite files: migrations from empty and from an older schema, refusal of
// files that are not stores or are newer, definition snapshots, and projections rebuilt from the
// log matching the ones the engine kept.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../../engine/runtime/projections.ts';
import { MIGRATIONS, SCHEMA_VERSION, WEFT_APPLICATION_ID } from '../../engine/store/migrations.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { findLogDamage } from '../../engine/store/check-log.ts';
import { StoreError } from '../../engine/store/store-error.ts';
import { transformChain } from './transform-chain.ts';
import { harness, parseWorkflow, type Harness } from './harness.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

const temp = () => mkdtempSync(join(tmpdir(), 'weft-store-'));
const chain = transformChain;

let h: Harness | undefined;
afterEach(() => h?.close());

describe('migrations', () => {
  it('migrates an empty database to the current schema', () => {
    const db = openDatabase(join(temp(), 'new.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(['definitions', 'event_types', 'events', 'external_events', 'lease', 'policies', 'run_metrics', 'run_snapshots', 'runs', 'saved_versions', 'sqlite_sequence', 'stat_cost_days', 'stat_edges', 'stat_runs', 'stat_samples', 'stat_starts', 'stat_steps', 'step_states']);
    db.close();
  });

  it('migrates a version-1 database with data, keeping the data', () => {
    const path = join(temp(), 'old.db');
    const old = openDatabase(path, { upTo: 1 });
    expect(old.pragma('user_version', { simple: true })).toBe(1);
    old.prepare("INSERT INTO runs (id, workflow_id, version, state, created_at, updated_at) VALUES ('r1', 'w', 1, 'succeeded', 1, 2)").run();
    old.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES ('r1', 1, 1, 'run_created', '{}')").run();
    old.close();
    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT id, state, input_revision FROM runs").all()).toEqual([{ id: 'r1', state: 'succeeded', input_revision: 1 }]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: 1 });
    db.close();
  });

  it('numbers migrations upward, so a store knows which ones it has', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(SCHEMA_VERSION).toBe(versions[versions.length - 1]);
  });

  it('migration 7 gives the events of an older store a global cursor in commit order, keeping (run, seq) unique', () => {
    const path = join(temp(), 'v4.db');
    const old = openDatabase(path, { upTo: 4 });
    const insert = old.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES (?, ?, ?, 'run_state_changed', '{\"state\":\"running\"}')");
    // Run b's clock went back at seq 2: its cursor order must still follow its seq.
    for (const [run, seq, at] of [['b', 1, 10], ['a', 1, 5], ['a', 2, 20], ['b', 2, 8], ['b', 3, 30], ['a', 3, 25]] as const) insert.run(run, seq, at);
    old.close();
    const db = openDatabase(path);
    const rows = db.prepare('SELECT cursor, run_id, seq FROM events ORDER BY cursor').all();
    expect(rows).toEqual([
      { cursor: 1, run_id: 'a', seq: 1 },
      { cursor: 2, run_id: 'b', seq: 1 },
      { cursor: 3, run_id: 'b', seq: 2 },
      { cursor: 4, run_id: 'a', seq: 2 },
      { cursor: 5, run_id: 'a', seq: 3 },
      { cursor: 6, run_id: 'b', seq: 3 },
    ]);
    expect(() => db.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES ('a', 3, 40, 'run_state_changed', '{}')").run()).toThrow(/UNIQUE/);
    const store = new Store(db);
    store.append({ runId: 'a', type: 'run_state_changed', at: 50, data: { state: 'succeeded' } });
    store.flush();
    expect(store.readEventsAfter(5).map((c) => [c.cursor, c.event.runId, c.event.seq])).toEqual([[6, 'b', 3], [7, 'a', 4]]);
    const plan = (db.prepare("EXPLAIN QUERY PLAN SELECT * FROM events WHERE run_id = 'a' ORDER BY seq").all() as { detail: string }[]).map((r) => r.detail).join(' ');
    expect(plan).toMatch(/USING INDEX events_by_run/);
    db.close();
  });

  it('migration 9 keeps the set of event types: filled from an older log, then by every insert and change of a type', () => {
    const path = join(temp(), 'v8.db');
    const old = openDatabase(path, { upTo: 8 });
    const insert = old.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES (?, ?, 1, ?, '{}')");
    insert.run('a', 1, 'run_created');
    insert.run('a', 2, 'run_state_changed');
    old.close();
    const db = openDatabase(path);
    const types = (): string[] => db.prepare('SELECT type FROM event_types ORDER BY type').pluck().all() as string[];
    expect(types()).toEqual(['run_created', 'run_state_changed']);
    const store = new Store(db);
    store.append({ runId: 'a', type: 'step_activated', at: 2, step: 's', data: { activation: 1, reason: 'entry step' } as never });
    store.flush();
    db.prepare("UPDATE events SET type = 'teleported' WHERE run_id = 'a' AND seq = 1").run();
    expect(types()).toEqual(['run_created', 'run_state_changed', 'step_activated', 'teleported']);
    expect(findLogDamage(db, SCHEMA_VERSION)).toBe('run a event 1: unknown event type "teleported"; the store is damaged, or was written by a newer Weft (use that Weft to read it)');
    // Put back, the type stays in the set, but no event has it: the log reads as weft's again.
    db.prepare("UPDATE events SET type = 'run_created' WHERE run_id = 'a' AND seq = 1").run();
    expect(findLogDamage(db, SCHEMA_VERSION)).toBeUndefined();
    db.close();
  });

  it('finds a gap, a run not starting at 1 and a changed snapshot, naming the run and event or the snapshot', () => {
    const path = join(temp(), 'check.db');
    const db = openDatabase(path);
    const insert = db.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES (?, ?, 1, 'run_state_changed', '{}')");
    for (const seq of [1, 2, 3]) insert.run('a', seq);
    expect(findLogDamage(db, SCHEMA_VERSION)).toBeUndefined();
    db.prepare("DELETE FROM events WHERE run_id = 'a' AND seq = 2").run();
    expect(findLogDamage(db, SCHEMA_VERSION)).toBe('run a has a gap in its event log: event 2 is missing; the store is damaged');
    db.prepare("DELETE FROM events WHERE run_id = 'a'").run();
    for (const seq of [0, 1, 2]) insert.run('b', seq);
    expect(findLogDamage(db, SCHEMA_VERSION)).toBe('run b has a gap in its event log: event 1 is missing (it has an event 0); the store is damaged');
    db.prepare("DELETE FROM events WHERE run_id = 'b'").run();
    new Store(db).saveDefinition(parseWorkflow(chain('flow', 2)), 1);
    expect(findLogDamage(db, SCHEMA_VERSION)).toBeUndefined();
    // Still a workflow, but not the one stored: its hash says so.
    db.prepare("UPDATE definitions SET content = replace(content, '\"name\":\"flow\"', '\"name\":\"other\"')").run();
    expect(findLogDamage(db, SCHEMA_VERSION)).toBe('the definition snapshot of workflow "flow" version 1 was changed after it was stored (its content does not match its hash); the store is damaged');
    db.close();
  });

  it('refuses a database from a newer Weft, unchanged', () => {
    const path = join(temp(), 'newer.db');
    const db = new Database(path);
    // A newer weft stamps its stores as this one does.
    db.pragma(`application_id = ${WEFT_APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(/newer than this Weft understands/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite, unchanged', () => {
    const path = join(temp(), 'notes.db');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(200));
    const before = readFileSync(path);
    let error: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('not-a-database');
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('definition snapshots', () => {
  it('refuses different content under a version that has run, and says to bump it', () => {
    const store = new Store(openDatabase(join(temp(), 'w.db')));
    const a = parseWorkflow(chain('flow', 2));
    store.saveDefinition(a, 1);
    expect(store.saveDefinition({ ...a, layout: { s0: { x: 1, y: 2 } } }, 2)).toBeTypeOf('string');
    const changed = parseWorkflow({ ...chain('flow', 2), name: 'renamed' });
    expect(() => store.saveDefinition(changed, 3)).toThrow(/bump "version" to 2/);
    expect(store.saveDefinition({ ...changed, version: 2 }, 4)).toBeTypeOf('string');
  });

  it('reads a snapshot back parsed by the workflow schema, once per version', () => {
    const store = new Store(openDatabase(join(temp(), 'w.db')));
    const a = parseWorkflow(chain('flow', 2));
    store.saveDefinition(a, 1);
    const loaded = store.loadDefinition('flow', 1);
    expect(loaded?.workflow).toEqual(Workflow.parse(a));
    expect(store.loadDefinition('flow', 1)).toBe(loaded);
  });

  it('refuses a snapshot whose step config breaks the schema, naming the path, and writes nothing', () => {
    const path = join(temp(), 'w.db');
    const db = openDatabase(path);
    new Store(db).saveDefinition(parseWorkflow(chain('flow', 2)), 1);
    db.close();
    // The snapshot is changed behind the store's back, by a connection of the test's own.
    const raw = new Database(path);
    const content = (raw.prepare('SELECT content FROM definitions').get() as { content: string }).content;
    const broken = content.replace('"expression":', '"expression":1,"typo":');
    expect(broken).not.toBe(content);
    raw.prepare('UPDATE definitions SET content = ?').run(broken);
    raw.close();
    const message = /the definition snapshot of workflow "flow" version 1 is not a workflow \(\$\.steps\.0\.config[^)]*\); the store is damaged/;
    // Opened to write, the whole store is refused; opened to read, the snapshot is refused when loaded.
    expect(() => openDatabase(path)).toThrow(message);
    const reader = openDatabase(path, { mode: 'read' });
    const fresh = new Store(reader);
    expect(() => fresh.loadDefinition('flow', 1)).toThrow(message);
    expect((reader.prepare('SELECT content FROM definitions').get() as { content: string }).content).toBe(broken);
    reader.close();
  });
});

describe('event log and projections', () => {
  it('keeps a gapless log per run and rebuilds projections equal to the live ones', async () => {
    h = harness();
    const waiting = {
      format: 'weft/v1', id: 'parked', version: 1, name: 'parked',
      steps: [{ id: 'first', kind: 'transform', config: { expression: '1' } }, { id: 'pause', kind: 'wait', config: { durationMs: 3_600_000 } }, { id: 'done', kind: 'end' }],
      edges: [{ id: 'a', from: 'first', to: 'pause' }, { id: 'b', from: 'pause', to: 'done' }],
    };
    const runs = [h.start(chain('one', 5)).runId, h.start(chain('two', 3)).runId, h.start(waiting).runId];
    expect(await h.engine.settled(runs[0] as string)).toBe('succeeded');
    expect(await h.engine.settled(runs[1] as string)).toBe('succeeded');
    expect(await h.engine.settled(runs[2] as string)).toBe('waiting');
    for (const id of runs) expect(h.events(id).map((e) => e.seq)).toEqual(Array.from({ length: h.events(id).length }, (_, i) => i + 1));
    const live = runs.map((id) => ({ run: h?.store.getRun(id), steps: h?.store.stepProjections(id) }));
    expect(rebuildProjections(h.store)).toBe(3);
    const rebuilt = runs.map((id) => ({ run: h?.store.getRun(id), steps: h?.store.stepProjections(id) }));
    expect(rebuilt).toEqual(live);
    expect(live[0]?.steps).toEqual([]); // finished runs keep no step rows
    expect(live[0]?.run?.state).toBe('succeeded');
    expect(live[2]?.steps?.map((r) => [r.stepId, r.state])).toEqual([['first', 'succeeded'], ['pause', 'waiting']]);
  });

  it('refuses appends that would break the sequence and keeps the log intact', () => {
    const path = join(temp(), 'seq.db');
    const store = new Store(openDatabase(path));
    store.append({ runId: 'r1', type: 'run_state_changed', at: 1, data: { state: 'running' } });
    store.flush();
    // Another writer appends to the run behind this store's back.
    const other = new Database(path);
    other.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES ('r1', 2, 1, 'run_state_changed', '{\"state\":\"running\"}')").run();
    other.close();
    store.append({ runId: 'r1', type: 'run_state_changed', at: 2, data: { state: 'failed' } });
    expect(() => store.flush()).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(store.readEvents('r1').map((e) => e.seq)).toEqual([1, 2]);
  });
});

describe('reading a run back, after the merge of paged reads and the gap check', () => {
  /** Run r1 with events 1..5 committed, then `damage` applied to the file. */
  function storeWithLog(damage: (db: Database.Database) => void = () => {}): Store {
    const path = join(temp(), 'log.db');
    const db = openDatabase(path);
    const store = new Store(db);
    for (let k = 0; k < 5; k++) store.append({ runId: 'r1', type: 'run_state_changed', at: k, data: { state: 'running' } });
    store.flush();
    damage(db);
    return store;
  }

  it('pages a gapless log from any seq', () => {
    const store = storeWithLog();
    expect(store.readEvents('r1', { after: 2 }).map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(store.readEvents('r1', { after: 2, limit: 2 }).map((e) => e.seq)).toEqual([3, 4]);
    expect(store.readEvents('r1', { after: 5 })).toEqual([]);
  });

  it('refuses a page that crosses a hole in the log, and not one that starts after it', () => {
    const store = storeWithLog((db) => db.prepare("DELETE FROM events WHERE run_id = 'r1' AND seq = 3").run());
    expect(() => store.readEvents('r1')).toThrow(/run r1 has a gap in its event log: event 3 is missing/);
    expect(() => store.readEvents('r1', { after: 1 })).toThrow(/event 3 is missing/);
    // The page before the hole, and the page after it (the follower's next poll), are whole.
    expect(store.readEvents('r1', { after: 0, limit: 2 }).map((e) => e.seq)).toEqual([1, 2]);
    expect(store.readEvents('r1', { after: 3 }).map((e) => e.seq)).toEqual([4, 5]);
  });

  it('resolves a run by any length of prefix, and a full id with events but no row', () => {
    const store = storeWithLog((db) => {
      db.prepare("INSERT INTO runs (id, workflow_id, version, state, created_at, updated_at) VALUES ('run-abc', 'w', 1, 'succeeded', 1, 2)").run();
    });
    expect(store.resolveRunId('run-a')).toBe('run-abc');
    // r1 has a log but no runs row (an older engine's crash): still a run, by its full id.
    expect(store.resolveRunId('r1')).toBe('r1');
    const long = 'r'.repeat(100_000);
    expect(() => store.resolveRunId(long)).toThrow(/no run "r{40}…" \(100000 characters\) in this store/);
    expect(() => store.resolveRunId('')).toThrow(/no run "" in this store/);
  });
});
