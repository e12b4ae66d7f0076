// Does the store's log read as weft's? Checked as a whole before any command writes to a store
// (open-database.ts), and by commands that read, to say which run is damaged: every event type
// is one this Weft knows, every run's log is gapless from 1, and every definition snapshot is
// the one weft stored. What it costs on a large store: the types are read from a set the
// triggers of migration 9 keep (a few rows); the sequences from the (run, seq) index, one pass
// over it, without reading the events themselves; the snapshots are hashed. Event data that
// does not parse is found when its run is read (store.ts), not here: that would read the log.
import { EVENT_DATA } from '../../shared/events/run-event.ts';
import { sha256 } from './canonical-json.ts';
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { snapshotWorkflow } from './definition-snapshot.ts';
import { isPgDb, readSnapshot } from './pg/read-snapshot.ts';

/** The first migration that keeps the set of event types. */
const EVENT_TYPES_VERSION = 9;

/**
 * What is wrong with the store's log, in one line naming the run and event (or the definition
 * snapshot), or undefined when it reads as weft's. `version` is the store's schema version.
 *
 * @example findLogDamage(db, 9) // 'run r1 event 4: unknown event type "teleported"; the store is damaged, or was written by a newer Weft (use that Weft to read it)'
 */
export function findLogDamage(db: Db, version: number): string | undefined {
  return unknownType(db, version) ?? gap(db) ?? changedSnapshot(db);
}

/**
 * findLogDamage for an open store, as of one snapshot, at the schema version it has. A PostgreSQL
 * store has no user_version: it is at its baseline (opening it checked that, pg-schema.ts), which
 * keeps the set of event types; its one snapshot is asked for, as SQLite's read transaction is one.
 */
export function storeLogDamage(db: Db): string | undefined {
  return db.transaction(() => {
    readSnapshot(db);
    return findLogDamage(db, isPgDb(db) ? EVENT_TYPES_VERSION : (db.pragma('user_version', { simple: true }) as number));
  })();
}

function unknownType(db: Db, version: number): string | undefined {
  const known = JSON.stringify(Object.keys(EVENT_DATA));
  if (version >= EVENT_TYPES_VERSION) {
    const types = (db.prepare('SELECT type FROM event_types').pluck().all() as string[]).filter((t) => !Object.hasOwn(EVENT_DATA, t));
    for (const type of types) {
      // A type once written may have been deleted since: only an event that has it is damage.
      const at = db.prepare('SELECT run_id, seq FROM events WHERE type = ? ORDER BY run_id, seq LIMIT 1').get(type) as { run_id: string; seq: number } | undefined;
      if (at !== undefined) return unknownTypeAt(at.run_id, at.seq, type);
    }
    return undefined;
  }
  // A store older than the set (it is made when the store is upgraded): read the types.
  const at = db.prepare('SELECT run_id, seq, type FROM events WHERE type NOT IN (SELECT value FROM json_each(?)) ORDER BY run_id, seq LIMIT 1').get(known) as { run_id: string; seq: number; type: string } | undefined;
  return at === undefined ? undefined : unknownTypeAt(at.run_id, at.seq, at.type);
}

const unknownTypeAt = (runId: string, seq: number, type: string): string =>
  `run ${runId} event ${seq}: unknown event type ${JSON.stringify(type)}; the store is damaged, or was written by a newer Weft (use that Weft to read it)`;

function gap(db: Db): string | undefined {
  // Seqs are unique per run (the index), so 1..n is exactly: n of them, the least 1, the most n.
  const run = db.prepare('SELECT run_id FROM events GROUP BY run_id HAVING COUNT(*) != MAX(seq) OR MIN(seq) != 1 LIMIT 1').pluck().get() as string | undefined;
  if (run === undefined) return undefined;
  let expected = 1;
  for (const seq of db.prepare('SELECT seq FROM events WHERE run_id = ? ORDER BY seq').pluck().iterate(run) as IterableIterator<number>) {
    if (seq !== expected) return `run ${run} has a gap in its event log: event ${expected} is missing${seq < expected ? ` (it has an event ${seq})` : ''}; the store is damaged`;
    expected++;
  }
  return `run ${run} has a gap in its event log; the store is damaged`;
}

function changedSnapshot(db: Db): string | undefined {
  const rows = db.prepare('SELECT workflow_id, version, hash, content FROM definitions ORDER BY workflow_id, version').iterate() as IterableIterator<{ workflow_id: string; version: number; hash: string; content: string }>;
  for (const row of rows) {
    // weft stores sha256(content) with a snapshot, and never changes either.
    if (sha256(row.content) === row.hash) continue;
    try {
      snapshotWorkflow(row.content, row.workflow_id, row.version);
    } catch (e) {
      if (e instanceof StoreError) return e.message;
      throw e;
    }
    return `the definition snapshot of workflow ${JSON.stringify(row.workflow_id)} version ${row.version} was changed after it was stored (its content does not match its hash); the store is damaged`;
  }
  return undefined;
}
