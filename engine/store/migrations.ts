// Numbered, forward-only schema migrations. The database's `user_version` is the number of the
// last one applied. Never edit a migration that has shipped: add the next one.
import type { Db } from './db.ts';
import { buildRunRollups, RunRollups } from './run-rollups.ts';
import { buildCostDays, buildCostRollups, COST_BUCKET_SQL, COST_DAYS_SQL, COST_ROLLUPS_SQL } from './cost-rollups.ts';
import { RUN_SNAPSHOTS_SQL, SNAPSHOT_POLICY } from './run-snapshots.ts';
import { Store } from './store.ts';
import { backfillWorkflowRollups, WORKFLOW_ROLLUPS_SQL } from './workflow-rollups.ts';
import { RUN_SPEND_SQL, SPEND_BY_DAY_SQL } from './day-spend.ts';
import { POLICIES_SQL } from './policy-snapshots.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Run after `sql`, in the same transaction: what SQL alone cannot compute (a fold of each log). */
  build?: (db: Db) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'event log, definition snapshots, runs',
    sql: `
      CREATE TABLE definitions (
        workflow_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        hash TEXT NOT NULL,
        content TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (workflow_id, version)
      ) WITHOUT ROWID;
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        workflow_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        state TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE events (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        type TEXT NOT NULL,
        step TEXT,
        activation INTEGER,
        attempt INTEGER,
        data TEXT NOT NULL,
        reason TEXT,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'step projection, input revision and run listing index, engine lease',
    sql: `
      ALTER TABLE runs ADD COLUMN input_revision INTEGER NOT NULL DEFAULT 1;
      CREATE INDEX runs_by_state ON runs (state, created_at);
      CREATE TABLE step_states (
        run_id TEXT NOT NULL,
        step_id TEXT NOT NULL,
        activation INTEGER NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        evidence_id TEXT,
        PRIMARY KEY (run_id, step_id)
      ) WITHOUT ROWID;
      CREATE TABLE lease (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        heartbeat_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'external events for event steps (kept until a run consumes them); run idempotency keys',
    sql: `
      CREATE TABLE external_events (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        data TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        duplicates INTEGER NOT NULL DEFAULT 0,
        consumed_run TEXT,
        consumed_step TEXT
      ) WITHOUT ROWID;
      CREATE INDEX external_events_waiting ON external_events (name, key, received_at) WHERE consumed_run IS NULL;
      ALTER TABLE runs ADD COLUMN idempotency_key TEXT;
      CREATE UNIQUE INDEX runs_by_key ON runs (workflow_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'runs by workflow, for weft stats and parallel-run limits',
    sql: `
      CREATE INDEX runs_by_workflow ON runs (workflow_id, version, created_at);
    `,
  },
  // 5 and 6 are reserved for the store fixes of issue 9, which were written at the same time.
  {
    version: 7,
    name: 'a global cursor on the event log, in commit order (weft events --follow, subscriptions)',
    // The events table becomes a rowid table whose rowid is the cursor. SQLite gives a new row
    // the largest cursor so far + 1 while the inserting transaction holds the write lock, and the
    // lock is held until the commit; so cursor order is commit order, also with several writers,
    // and every reader's snapshot holds cursors 1..N with no hole: a client that read up to C and
    // asks for "after C" misses nothing and sees nothing twice. AUTOINCREMENT keeps a cursor from
    // ever being handed out twice, even if rows at the end were deleted one day; a rolled-back
    // transaction rolls its cursors back too. Old events are numbered by the latest time seen so
    // far in their run (a clock that went back never puts seq 3 before seq 2), then run and seq.
    sql: `
      CREATE TABLE events_with_cursor (
        cursor INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        type TEXT NOT NULL,
        step TEXT,
        activation INTEGER,
        attempt INTEGER,
        data TEXT NOT NULL,
        reason TEXT
      );
      INSERT INTO events_with_cursor (run_id, seq, at, type, step, activation, attempt, data, reason)
        SELECT run_id, seq, at, type, step, activation, attempt, data, reason
        FROM (SELECT *, MAX(at) OVER (PARTITION BY run_id ORDER BY seq) AS latest_at FROM events)
        ORDER BY latest_at, run_id, seq;
      DROP TABLE events;
      ALTER TABLE events_with_cursor RENAME TO events;
      CREATE UNIQUE INDEX events_by_run ON events (run_id, seq);
    `,
  },
  {
    version: 8,
    name: 'versions saved from the app that have not run (saved-versions.ts)',
    // A run's snapshot stays in `definitions` and is immutable. A version saved but never run is
    // kept here, replaced by the next save of the same number until a run uses it. `hash` is the
    // definition hash (as in `definitions`, without layout and $schema); `content` is the file
    // text as saved, layout included.
    sql: `
      CREATE TABLE saved_versions (
        workflow_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        hash TEXT NOT NULL,
        content TEXT NOT NULL,
        saved_at INTEGER NOT NULL,
        PRIMARY KEY (workflow_id, version)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 9,
    name: 'the set of event types in the log, kept by triggers (check-log.ts)',
    // Before anything is written, a store's log is checked to read as weft's (check-log.ts).
    // Reading every event's type would cost a scan of the whole log on every command; this set
    // lets the check read a few rows instead. Every insert, and every change of a type, adds the
    // type, from weft or from any other SQLite client (the triggers are in the file). A table
    // that replaces `events` one day must create these triggers again.
    sql: `
      CREATE TABLE event_types (type TEXT PRIMARY KEY) WITHOUT ROWID;
      INSERT OR IGNORE INTO event_types (type) SELECT DISTINCT type FROM events;
      CREATE TRIGGER events_type_inserted AFTER INSERT ON events BEGIN
        INSERT OR IGNORE INTO event_types (type) VALUES (new.type);
      END;
      CREATE TRIGGER events_type_changed AFTER UPDATE OF type ON events BEGIN
        INSERT OR IGNORE INTO event_types (type) VALUES (new.type);
      END;
    `,
  },
  {
    version: 10,
    name: 'rollups of finished runs (run-rollups.ts); indexes in the keyset order of the runs list',
    // `run_metrics` holds each finished run's metrics, written in the commit that finishes it:
    // stats read one row per run instead of folding every log. The runs list pages newest first
    // by (created_at, id), filtered by workflow or by state: each has an index in that order (a
    // WITHOUT ROWID table's index ends with the primary key, id), so a page reads its rows and
    // stops instead of sorting every run. runs_by_state (state, created_at) already was one.
    sql: `
      CREATE TABLE run_metrics (
        run_id TEXT PRIMARY KEY,
        metrics TEXT NOT NULL
      );
      CREATE INDEX runs_newest ON runs (created_at);
      CREATE INDEX runs_by_workflow_newest ON runs (workflow_id, created_at);
    `,
    build: (db) => {
      const store = new Store(db);
      buildRunRollups(db, (runId) => store.readRunLog(runId));
    },
  },
  // Migration 11 (s-stats, issue 20 step 8): per-workflow stats rollups.
  {
    version: 11,
    name: 'per-workflow counters and percentile samples of finished runs (workflow-rollups.ts)',
    // Kept with `run_metrics` in the same commits (run-rollups.ts): stats read these few rows and
    // the samples' value order instead of parsing every finished run's rollup. Built here from
    // the rollups migration 10 made.
    sql: WORKFLOW_ROLLUPS_SQL,
    build: (db) => backfillWorkflowRollups(db),
  },
  {
    version: 12,
    name: 'snapshots of big runs\' folded models and summaries (run-snapshots.ts)',
    // A projection of the log, like the rollups: a cold read of a run of 100,000 events loads its
    // snapshot and folds the events after it, instead of the whole log. Every run already at
    // SNAPSHOT_POLICY.minEvents events gets one here, folded from its log.
    sql: RUN_SNAPSHOTS_SQL,
    build: (db) => {
      new Store(db).backfillRunSnapshots(SNAPSHOT_POLICY.minEvents);
    },
  },
  {
    version: 13,
    name: 'the kind of a run: a real run, or a replay of one against another definition (replay-runs.ts)',
    // A replay (weft replay, issue 22) is stored as a run of kind 'replay', written whole when its
    // virtual run ends: the runs list, stats, version history and the engine's recovery read only
    // kind 'run'. Every run stored before is a real one.
    sql: `
      ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'run';
    `,
  },
  {
    version: 14,
    name: 'what finished runs cost, per workflow, UTC day and step (cost-rollups.ts)',
    // Issue 23: `weft stats` and the Insights page show cost over time, per successful run and per
    // step. A finished run's rollup now carries its cost; those of runs whose attempts recorded a
    // cost or tokens are folded again here (migration 18 makes its cost tables from them).
    sql: COST_ROLLUPS_SQL,
    build: (db) => {
      const store = new Store(db);
      const rollups = new RunRollups(db, (runId) => store.readRunLog(runId));
      buildCostRollups(db, (runId) => rollups.refresh(runId));
    },
  },
  {
    version: 15,
    name: 'what each workflow spent per day, for daily budgets (day-spend.ts)',
    // Kept in the commits that write attempt events with a cost; built here from the log's
    // attempt events that recorded one (a store of before issue 23 has none: the table is empty).
    sql: SPEND_BY_DAY_SQL,
  },
  {
    version: 16,
    name: 'the policies runs started under, once each by hash (policy-snapshots.ts)',
    // A run_created names its policy by hash from now on; the runs before keep theirs inline.
    sql: POLICIES_SQL,
  },
  {
    version: 17,
    name: 'the mark of a run whose spend is not settled yet (day-spend.ts)',
    // An attempt's cost was an upsert of spend_by_day in its commit: one more page written per
    // attempt. Now a run is marked at its first cost, its spend read from its attempt events while
    // it runs, and settled into spend_by_day when it finishes. What was spent before is there already.
    sql: RUN_SPEND_SQL,
  },
  {
    version: 18,
    name: 'cost per day and per step of finished runs in fewer rows (cost-rollups.ts)',
    // A finished run wrote a row per step and day of cost (migration 14), one per day of spend
    // (migration 15), and its mark twice (migration 17): 12 more writes for a 10-step run. Now one
    // row per day, the steps' cost in the step rows it writes anyway, and admission finds the
    // runs still going by their state. Built from the rollups, which carry every run's cost.
    sql: COST_DAYS_SQL,
    build: buildCostDays,
  },
  {
    version: 19,
    name: "an attempt's cost of USD and basis declared stored as its amount (stored-cost.ts)",
    // No table changes. A Weft of before would read such a row as damage; the number tells it
    // the store is newer than it, before it reads anything.
    sql: '',
  },
  {
    version: 20,
    name: "the current day's cost of finished runs on their stat_runs row (cost-rollups.ts)",
    // A finishing commit's upsert of stat_cost_days wrote a page no other part of it writes (one
    // WAL frame more per run, docs/policies.md). The day a run last spent on now goes to its
    // stat_runs row, written anyway; the rows already in stat_cost_days stay where they are.
    sql: COST_BUCKET_SQL,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * SQLite's `application_id` of every weft store: "WEFT" in ASCII. A store created before weft
 * stamped it has 0 there and is recognised by its tables instead (recognise-store.ts).
 */
export const WEFT_APPLICATION_ID = 0x57454654;

/**
 * The tables the migrations up to `version` leave: what a weft store of that version has. A table
 * made, dropped or renamed on the way (migration 7 rebuilds `events`) counts as it ends up.
 */
export function tablesOfVersion(version: number): string[] {
  const tables = new Set<string>();
  const statement = /CREATE TABLE (\w+)|DROP TABLE (\w+)|ALTER TABLE (\w+) RENAME TO (\w+)/g;
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) {
    for (const [, created, dropped, from, to] of m.sql.matchAll(statement)) {
      if (created !== undefined) tables.add(created);
      if (dropped !== undefined) tables.delete(dropped);
      if (from !== undefined && to !== undefined) {
        tables.delete(from);
        tables.add(to);
      }
    }
  }
  return [...tables];
}
