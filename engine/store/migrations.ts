// Numbered, forward-only schema migrations. The database's `user_version` is the number of the
// last one applied. Never edit a migration that has shipped: add the next one.

export interface Migration {
  version: number;
  name: string;
  sql: string;
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
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * SQLite's `application_id` of every weft store: "WEFT" in ASCII. A store created before weft
 * stamped it has 0 there and is recognised by its tables instead (recognise-store.ts).
 */
export const WEFT_APPLICATION_ID = 0x57454654;

/** The tables the migrations up to `version` create: what a weft store of that version has. */
export function tablesOfVersion(version: number): string[] {
  return MIGRATIONS.filter((m) => m.version <= version).flatMap((m) => [...m.sql.matchAll(/CREATE TABLE (\w+)/g)].map((x) => x[1] ?? ''));
}
