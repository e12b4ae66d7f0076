// The schema of a PostgreSQL store (issue 25): the same tables as a SQLite store at the same
// schema version (migrations.ts), column for column, plus what only PostgreSQL needs. The SQLite
// side stays the reference: test/store/pg-dialect.test.ts compares the two on a real server.
//
// Types: times and counters are bigint (SQLite's INTEGER is 64-bit); versions, seqs, activations,
// attempts and flags are integer. JSON and other payloads are `text`, never jsonb, which would
// reorder keys (an event's data is kept byte for byte). Ids and keys are `text COLLATE "C"`: byte
// order, as SQLite's BINARY, which every `ORDER BY id` and keyset page relies on, whatever the
// database's locale. A store starts at this baseline (empty, or filled by a copy): the SQLite
// migrations' backfills have nothing to fold here.
//
// Only on PostgreSQL: `events.cursor` is a bigint key that a BEFORE INSERT trigger numbers from
// `log_head` (one row) when the INSERT gives none, as the store's INSERTs do (SQLite's
// AUTOINCREMENT). The UPDATE of log_head locks its row until the transaction ends, so a second
// writer's first event waits for the first writer's commit: cursors are in commit order with no
// hole, and a rolled-back transaction gives its numbers back. An INSERT that gives the cursor (a
// store copy) moves log_head up to it. `weft_meta` holds what SQLite keeps in its header
// (application_id, user_version). SQLite's two event_types triggers are plpgsql triggers here.
//
// migratePg makes or checks a store's schema in one transaction under an advisory lock, so
// processes starting together on an empty database create it once.
import type pg from 'pg';
import { StoreError } from '../store-error.ts';
import type { PgSync } from './pg-sync.ts';
import { COORDINATION_LAST, COORDINATION_SQL, COORDINATION_TABLES } from './pg-coordination-sql.ts';

/** The schema version this baseline equals on SQLite (SCHEMA_VERSION; the dialect test keeps them equal). */
export const PG_SCHEMA_VERSION = 20;

/** The first PostgreSQL schema (SQLite's 18): every PostgreSQL store was made at it or later. */
const PG_FIRST_VERSION = 18;

/** The value of weft_meta's `application` row in every weft store on PostgreSQL. */
export const PG_APPLICATION = 'weft';

/** The key of the transaction-level advisory lock a migration holds: "WEFT" in ASCII, as SQLite's application_id. */
export const PG_MIGRATION_LOCK = 0x57454654;

/** Tables PostgreSQL has and SQLite has not. */
export const PG_ONLY_TABLES: readonly string[] = ['weft_meta', 'log_head', ...COORDINATION_TABLES];

/**
 * The triggers on `events`: its cursor numbered from log_head (commit-ordered, gapless), and the set
 * of event types in the log (SQLite's migration 9) kept as SQLite's triggers keep it.
 */
const LOG_TRIGGERS_SQL = `
  CREATE FUNCTION events_cursor() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.cursor IS NULL THEN
      UPDATE log_head SET last = last + 1 WHERE id = 1 RETURNING last INTO NEW.cursor;
    ELSE
      UPDATE log_head SET last = NEW.cursor WHERE id = 1 AND last < NEW.cursor;
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER events_cursor BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_cursor();
  CREATE FUNCTION events_types_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO event_types (type) SELECT DISTINCT type FROM inserted_events ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$;
  CREATE TRIGGER events_type_inserted AFTER INSERT ON events REFERENCING NEW TABLE AS inserted_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_types_inserted();
  CREATE FUNCTION events_type_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO event_types (type) VALUES (NEW.type) ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$;
  CREATE TRIGGER events_type_changed AFTER UPDATE OF type ON events FOR EACH ROW EXECUTE FUNCTION events_type_changed();
`;

/** The baseline: every table and index of a store at PG_SCHEMA_VERSION, in one script. */
export const PG_BASELINE_SQL = `
  CREATE TABLE weft_meta (
    key text COLLATE "C" PRIMARY KEY,
    value text NOT NULL
  );
  CREATE TABLE definitions (
    workflow_id text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    hash text COLLATE "C" NOT NULL,
    content text NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (workflow_id, version)
  );
  CREATE TABLE runs (
    id text COLLATE "C" PRIMARY KEY,
    workflow_id text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    state text COLLATE "C" NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    input_revision integer NOT NULL DEFAULT 1,
    idempotency_key text COLLATE "C",
    kind text COLLATE "C" NOT NULL DEFAULT 'run'
  );
  CREATE INDEX runs_by_state ON runs (state, created_at);
  CREATE UNIQUE INDEX runs_by_key ON runs (workflow_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX runs_by_workflow ON runs (workflow_id, version, created_at);
  CREATE INDEX runs_newest ON runs (created_at);
  CREATE INDEX runs_by_workflow_newest ON runs (workflow_id, created_at);
  CREATE TABLE events (
    cursor bigint PRIMARY KEY,
    run_id text COLLATE "C" NOT NULL,
    seq integer NOT NULL,
    at bigint NOT NULL,
    type text COLLATE "C" NOT NULL,
    step text COLLATE "C",
    activation integer,
    attempt integer,
    data text NOT NULL,
    reason text
  );
  CREATE UNIQUE INDEX events_by_run ON events (run_id, seq);
  CREATE TABLE log_head (
    id smallint PRIMARY KEY CHECK (id = 1),
    last bigint NOT NULL
  );
  INSERT INTO log_head (id, last) VALUES (1, 0);
  ${LOG_TRIGGERS_SQL}
  CREATE TABLE event_types (
    type text COLLATE "C" PRIMARY KEY
  );
  CREATE TABLE step_states (
    run_id text COLLATE "C" NOT NULL,
    step_id text COLLATE "C" NOT NULL,
    activation integer NOT NULL,
    state text COLLATE "C" NOT NULL,
    attempts integer NOT NULL,
    evidence_id text COLLATE "C",
    PRIMARY KEY (run_id, step_id)
  );
  CREATE TABLE lease (
    id integer PRIMARY KEY CHECK (id = 1),
    owner text NOT NULL,
    pid integer NOT NULL,
    host text NOT NULL,
    heartbeat_at bigint NOT NULL
  );
  CREATE TABLE external_events (
    id text COLLATE "C" PRIMARY KEY,
    name text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    data text NOT NULL,
    received_at bigint NOT NULL,
    duplicates bigint NOT NULL DEFAULT 0,
    consumed_run text COLLATE "C",
    consumed_step text COLLATE "C"
  );
  CREATE INDEX external_events_waiting ON external_events (name, key, received_at) WHERE consumed_run IS NULL;
  CREATE TABLE saved_versions (
    workflow_id text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    hash text COLLATE "C" NOT NULL,
    content text NOT NULL,
    saved_at bigint NOT NULL,
    PRIMARY KEY (workflow_id, version)
  );
  CREATE TABLE run_metrics (
    run_id text COLLATE "C" PRIMARY KEY,
    metrics text NOT NULL
  );
  ${statTables()}
  CREATE TABLE run_snapshots (
    run_id text COLLATE "C" PRIMARY KEY,
    seq integer NOT NULL,
    cursor bigint NOT NULL,
    format integer NOT NULL,
    summary_attempts bigint NOT NULL,
    summary_hash text COLLATE "C" NOT NULL,
    model_hash text COLLATE "C" NOT NULL,
    summary text NOT NULL,
    model bytea NOT NULL
  );
  CREATE TABLE policies (
    hash text COLLATE "C" PRIMARY KEY,
    rules text NOT NULL
  );
`;

/** Migration 20's columns of stat_runs on a store made before (as the baseline has them). */
const STAT_RUNS_BUCKET_SQL = `
  ALTER TABLE stat_runs ADD COLUMN cost_day bigint, ADD COLUMN cost_currency text COLLATE "C",
    ADD COLUMN cost_micros bigint NOT NULL DEFAULT 0, ADD COLUMN cost_input_tokens bigint NOT NULL DEFAULT 0,
    ADD COLUMN cost_output_tokens bigint NOT NULL DEFAULT 0, ADD COLUMN cost_attempts bigint NOT NULL DEFAULT 0`;

/** The rollups of finished runs (workflow-rollups.ts, cost-rollups.ts): one table per view of them. */
function statTables(): string {
  const key = 'workflow_id text COLLATE "C" NOT NULL,\n    version integer NOT NULL';
  return `
  CREATE TABLE stat_runs (
    ${key},
    state text COLLATE "C" NOT NULL,
    runs bigint NOT NULL,
    retried bigint NOT NULL,
    compensated bigint NOT NULL,
    intervened bigint NOT NULL,
    retries bigint NOT NULL,
    compensations bigint NOT NULL,
    interventions bigint NOT NULL,
    cost_day bigint,
    cost_currency text COLLATE "C",
    cost_micros bigint NOT NULL DEFAULT 0,
    cost_input_tokens bigint NOT NULL DEFAULT 0,
    cost_output_tokens bigint NOT NULL DEFAULT 0,
    cost_attempts bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (workflow_id, version, state)
  );
  CREATE TABLE stat_steps (
    ${key},
    step_id text COLLATE "C" NOT NULL,
    outcome text COLLATE "C" NOT NULL,
    listed bigint NOT NULL,
    runs bigint NOT NULL,
    activations bigint NOT NULL,
    attempts bigint NOT NULL,
    retries bigint NOT NULL,
    settled bigint NOT NULL,
    failures bigint NOT NULL,
    cost_micros bigint NOT NULL DEFAULT 0,
    input_tokens bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    cost_attempts bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (workflow_id, version, step_id, outcome)
  );
  CREATE TABLE stat_edges (
    ${key},
    edge_id text COLLATE "C" NOT NULL,
    listed bigint NOT NULL,
    decided bigint NOT NULL,
    taken bigint NOT NULL,
    taking bigint NOT NULL,
    PRIMARY KEY (workflow_id, version, edge_id)
  );
  CREATE TABLE stat_starts (
    ${key},
    minute bigint NOT NULL,
    runs bigint NOT NULL,
    succeeded bigint NOT NULL,
    retried bigint NOT NULL,
    compensated bigint NOT NULL,
    intervened bigint NOT NULL,
    PRIMARY KEY (workflow_id, version, minute)
  );
  CREATE TABLE stat_samples (
    ${key},
    run_id text COLLATE "C" NOT NULL,
    samples text NOT NULL,
    PRIMARY KEY (workflow_id, version, run_id)
  );
  CREATE TABLE stat_cost_days (
    ${key},
    day bigint NOT NULL,
    succeeded integer NOT NULL,
    currency text COLLATE "C" NOT NULL,
    micros bigint NOT NULL,
    input_tokens bigint NOT NULL,
    output_tokens bigint NOT NULL,
    attempts bigint NOT NULL,
    PRIMARY KEY (workflow_id, version, day, succeeded, currency)
  );`;
}

export interface PgMigration {
  /** The schema version found before, 0 for an empty database. */
  from: number;
  /** The schema version now (PG_SCHEMA_VERSION). */
  to: number;
}

/** One statement of a migration, and what it answers: its rows as objects. */
interface Query {
  text: string;
  values?: readonly unknown[];
}
type Rows = Record<string, unknown>[];

/**
 * Makes the database (the schema `search_path` names) a weft store at PG_SCHEMA_VERSION, or checks
 * that it is one: creates everything in an empty one, does nothing in one at this version, and
 * refuses a newer store or a database that holds tables but is not a weft store. `where` names the
 * store in errors (describePgUrl), never with its password.
 * @example const { from, to } = await migratePg(pool, describePgUrl(url)); // { from: 0, to: 20 } the first time
 */
export async function migratePg(pool: pg.Pool, where = 'the PostgreSQL store'): Promise<PgMigration> {
  const client = await pool.connect();
  try {
    const steps = migration(where);
    for (let next = steps.next(); ; ) {
      if (next.done === true) return next.value;
      try {
        const { rows } = await client.query(next.value.text, next.value.values === undefined ? [] : [...next.value.values]);
        next = steps.next(rows as Rows);
      } catch (e) {
        next = steps.throw(e);
      }
    }
  } finally {
    client.release();
  }
}

/**
 * migratePg on the store's own synchronous connection (pg-sync.ts), which opening a store uses.
 * @example migratePgSync(PgSync.open(url), describePgUrl(url));
 */
export function migratePgSync(sync: PgSync, where = 'the PostgreSQL store', create = true): PgMigration {
  const steps = migration(where, create);
  for (let next = steps.next(); ; ) {
    if (next.done === true) return next.value;
    try {
      next = steps.next(sync.query(next.value.text, next.value.values ?? [], 'object').rows as Rows);
    } catch (e) {
      next = steps.throw(e);
    }
  }
}

/** The migration, as the statements it asks a connection to run (either driver above runs them); `create` false refuses an empty schema. */
function* migration(where: string, create = true): Generator<Query, PgMigration, Rows> {
  yield { text: 'BEGIN' };
  try {
    yield { text: 'SELECT pg_advisory_xact_lock($1)', values: [PG_MIGRATION_LOCK] };
    const from = yield* foundVersion(where);
    if (from === 0 && !create) {
      throw new StoreError('no-store', `${where} holds no Weft store (its schema is empty); nothing was changed; weft run or weft store copy makes one there`);
    }
    if (from === 0) {
      yield { text: PG_BASELINE_SQL };
      yield { text: 'INSERT INTO weft_meta (key, value) VALUES ($1, $2), ($3, $4)', values: ['application', PG_APPLICATION, 'schema_version', String(PG_SCHEMA_VERSION)] };
    } else if (from < PG_SCHEMA_VERSION) {
      // 18 to 19 changed no table (an attempt's cost may be stored short, stored-cost.ts). 19 to
      // 20 gave stat_runs its cost bucket (cost-rollups.ts), which PostgreSQL's writers leave empty.
      if (from < 20) yield { text: STAT_RUNS_BUCKET_SQL };
      yield { text: "UPDATE weft_meta SET value = $1 WHERE key = 'schema_version'", values: [String(PG_SCHEMA_VERSION)] };
    }
    // The workers' tables (pg-coordination-sql.ts), in a new store and in one made before they existed.
    const coordination = yield { text: 'SELECT to_regclass($1) IS NOT NULL AS present', values: [COORDINATION_LAST] };
    if (coordination[0]?.['present'] !== true) yield { text: COORDINATION_SQL };
    yield { text: 'COMMIT' };
    return { from, to: PG_SCHEMA_VERSION };
  } catch (e) {
    yield { text: 'ROLLBACK' };
    throw e;
  }
}

/** The schema version of the store the connection sees, 0 if it is empty; throws if it is not one this Weft can use. */
function* foundVersion(where: string): Generator<Query, number, Rows> {
  const schemaRows = yield { text: 'SELECT current_schema() AS schema' };
  const schema = (schemaRows[0]?.['schema'] as string | null | undefined) ?? null;
  if (schema === null) {
    throw new StoreError('not-a-store', `${where} has no schema to make a store in (search_path names none that exists); nothing was changed; create the schema, or point the URL at another database`);
  }
  const tables = (yield {
    text: 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name COLLATE "C"',
    values: [schema],
  }) as { name: string }[];
  if (tables.length === 0) return 0;
  if (!tables.some((t) => t.name === 'weft_meta')) {
    const some = tables.slice(0, 5).map((t) => t.name).join(', ');
    throw new StoreError(
      'not-a-store',
      `${where} (schema ${schema}) holds tables (${some}${tables.length > 5 ? ', ...' : ''}) but is not a Weft store: it has no weft_meta table; nothing was changed; point the URL at an empty database or schema, or at a Weft store`,
    );
  }
  const rows = (yield { text: 'SELECT key, value FROM weft_meta' }) as { key: string; value: string }[];
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  if (meta.get('application') !== PG_APPLICATION) {
    throw new StoreError('not-a-store', `${where} (schema ${schema}) has a weft_meta table but its application is ${JSON.stringify(meta.get('application') ?? null)}, not "${PG_APPLICATION}": it is not a Weft store; nothing was changed`);
  }
  const version = Number(meta.get('schema_version'));
  if (!Number.isSafeInteger(version) || version < 1) {
    throw new StoreError('damaged', `${where} (schema ${schema}) is a Weft store whose schema_version in weft_meta is ${JSON.stringify(meta.get('schema_version') ?? null)}, not a version number; nothing was changed; restore it from a backup`);
  }
  if (version > PG_SCHEMA_VERSION) {
    throw new StoreError(
      'newer-schema',
      `${where} has schema version ${version}, newer than this Weft's (${PG_SCHEMA_VERSION}); nothing was changed; use a newer Weft with this store`,
    );
  }
  if (version < PG_FIRST_VERSION) {
    // A store older than the first PostgreSQL schema was never made by a Weft.
    throw new StoreError('damaged', `${where} has schema version ${version}, older than the first PostgreSQL schema (${PG_FIRST_VERSION}), which no Weft made; nothing was changed`);
  }
  return version;
}
