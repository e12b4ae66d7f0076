// The tables and functions by which several engines (workers) share one PostgreSQL store (issue
// 25, docs/scale-out.md). Only PostgreSQL has them: a SQLite store has one engine at a time (its
// `lease` row).
//
// - `weft_workers`: one row per live engine (a worker, or `weft serve`), heartbeated on the
//   database's clock. A row whose heartbeat is older than its ttl is a dead worker; a worker that
//   finds its own row stale stops (it may have been taken over) and registers again under a new id.
// - `run_leases`: which worker drives each unfinished run, and for a run no worker holds, when one
//   should take it up (`wake_at`: 0 at once, a time, or NULL when someone acts on it). The owner id is unique per registration,
//   so it is also the fencing token: every commit of an engine on PostgreSQL first calls
//   weft_fence, which locks the lease rows of the runs the commit writes (FOR SHARE) and raises
//   WF001 if any of them is no longer the committer's. A takeover updates those rows, so it waits
//   for a commit in flight, and a commit after it is refused: a worker that was paused past its
//   lease writes nothing more for a run another worker took over.
// - events_notify: each commit that appends events notifies `weft_log_<schema>` (LOG_CHANNEL), once
//   per transaction (PostgreSQL folds equal notifications), so every process's log tail reads
//   what other engines committed at once rather than at its next poll.
// - `weft_slots`: limits.concurrency across every engine. weft_take_slot takes one under an
//   advisory lock per pool, counting only the slots of live engines; the commit that records the
//   attempt's end deletes it and notifies `weft_slot`.
// - weft_now_ms(): the database's clock in ms, the one clock every worker's liveness is judged by.
//
// Every statement is idempotent (IF NOT EXISTS, OR REPLACE): the migration runs it on a new store,
// and on a store made before these tables existed.

/** The error code weft_fence raises when a commit writes for a run this engine no longer holds. */
export const LEASE_LOST_CODE = 'WF001';

/** The channel a commit that appended events is announced on, in the store's schema `schema`. */
export function logChannel(schema: string): string {
  return `weft_log_${schema}`;
}

/** The channel a commit that frees a slot of a resource's pool is announced on: queued attempts try again. */
export const SLOT_CHANNEL = 'weft_slot';

/** The channel an engine asks another to look again at a run it holds (the payload: the run's id). */
export const POKE_CHANNEL = 'weft_poke';

/** Tables of the coordination (PostgreSQL only, never copied by `weft store copy`). */
export const COORDINATION_TABLES: readonly string[] = ['weft_workers', 'run_leases', 'weft_slots'];

/** The coordination object made last: a store without it gets COORDINATION_SQL (again: it is idempotent). */
export const COORDINATION_LAST = 'run_leases_due';

export const COORDINATION_SQL = `
  CREATE OR REPLACE FUNCTION weft_now_ms() RETURNS bigint LANGUAGE sql VOLATILE AS
    $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;
  CREATE TABLE IF NOT EXISTS weft_workers (
    id text COLLATE "C" PRIMARY KEY,
    role text NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    ttl_ms bigint NOT NULL,
    started_at bigint NOT NULL,
    heartbeat_at bigint NOT NULL
  );
  CREATE TABLE IF NOT EXISTS run_leases (
    run_id text COLLATE "C" PRIMARY KEY,
    owner text COLLATE "C",
    claims integer NOT NULL DEFAULT 0,
    claimed_at bigint
  );
  ALTER TABLE run_leases ADD COLUMN IF NOT EXISTS wake_at bigint DEFAULT 0;
  CREATE INDEX IF NOT EXISTS run_leases_owner ON run_leases (owner);
  CREATE INDEX IF NOT EXISTS run_leases_due ON run_leases (wake_at) WHERE owner IS NULL;
  CREATE OR REPLACE FUNCTION weft_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('weft_log_' || current_schema(), '');
    RETURN NULL;
  END $$;
  DROP TRIGGER IF EXISTS events_notify ON events;
  CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION weft_events_notify();
  CREATE TABLE IF NOT EXISTS weft_slots (
    pool text COLLATE "C" NOT NULL,
    run_id text COLLATE "C" NOT NULL,
    step_id text COLLATE "C" NOT NULL,
    activation integer NOT NULL,
    owner text COLLATE "C" NOT NULL,
    taken_at bigint NOT NULL,
    PRIMARY KEY (pool, run_id, step_id, activation)
  );
  CREATE OR REPLACE FUNCTION weft_take_slot(p_owner text, p_pool text, p_limit integer, p_run text, p_step text, p_act integer) RETURNS boolean LANGUAGE plpgsql AS $$
  DECLARE
    used integer;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('weft_slot:' || p_pool, 0));
    DELETE FROM weft_slots s WHERE s.pool = p_pool
      AND NOT EXISTS (SELECT 1 FROM weft_workers w WHERE w.id = s.owner AND w.heartbeat_at >= weft_now_ms() - w.ttl_ms);
    UPDATE weft_slots SET owner = p_owner WHERE pool = p_pool AND run_id = p_run AND step_id = p_step AND activation = p_act;
    IF FOUND THEN
      RETURN true;
    END IF;
    SELECT count(*) INTO used FROM weft_slots WHERE pool = p_pool;
    IF used >= p_limit THEN
      RETURN false;
    END IF;
    INSERT INTO weft_slots (pool, run_id, step_id, activation, owner, taken_at) VALUES (p_pool, p_run, p_step, p_act, p_owner, weft_now_ms());
    RETURN true;
  END $$;
  CREATE OR REPLACE FUNCTION weft_fence(p_owner text, p_runs text[], p_new text[]) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    lost text;
    r text;
    o text;
  BEGIN
    INSERT INTO run_leases (run_id, owner, claims, claimed_at)
      SELECT n, p_owner, 1, weft_now_ms() FROM unnest(p_new) AS n ON CONFLICT (run_id) DO NOTHING;
    FOREACH r IN ARRAY p_runs LOOP
      SELECT owner INTO o FROM run_leases WHERE run_id = r FOR SHARE;
      IF o IS DISTINCT FROM p_owner THEN
        lost := coalesce(lost || ', ', '') || r;
      END IF;
    END LOOP;
    IF lost IS NOT NULL THEN
      RAISE EXCEPTION 'this engine (%) no longer holds run(s) %: another worker took them over after its lease expired', p_owner, lost
        USING ERRCODE = '${LEASE_LOST_CODE}';
    END IF;
  END $$;
`;
