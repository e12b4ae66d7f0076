// The only module that touches SQLite (with lease.ts and open-database.ts beside it). Events are
// appended to an in-memory batch and written by flush() in one transaction, together with the
// projections of the runs they touched: one commit per engine tick, not one per event. flush
// (durable) raises synchronous to FULL for that commit, so the record that an external attempt is
// about to start reaches the disk before the attempt does. After a commit, the events it wrote
// are published to subscribers with their global cursor (commit-listeners.ts, migration 7).
//
// Over 400 lines: every statement of the one SQLite writer is kept in this class, so one place
// holds the transaction rules; splitting it by table is issue 20's next step for it.
//
// Reading events, two ways. readEvents and readEventsAfter check each event's data against its
// zod schema (shared/events/run-event.ts): what they return goes to readers, the API and the
// live stream, where a row that is not weft's must be named, not passed on. readRunLog, for the
// engine's own loads of a run (fold-run.ts: resume, recovery, rebuilt projections), skips it: every
// event in the log was written by append() from data the engine's types vouch for, in a
// transaction, so re-parsing it on each load only costs (a resume of 1,000 runs parsed each of
// their events again). What still guards a log read that way: the store's log check
// (check-log.ts) before anything writes (every type known, every run gapless, every snapshot
// the one stored), SQLite's own checks of its pages, and here every row's type, JSON and object
// shape. Data damaged inside a well-formed object (a key or value changed in the file) is the
// gap: a fold that trips over it is read again with the full check, which names the event
// (fold-run.ts), and what comes from outside the log (a definition file, a forwarded command,
// a scenario) is parsed where it enters.
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { EVENT_DATA, parseEventData, runEvent, widenEvent, type EventData, type EventType, type RunEvent } from '../../shared/events/run-event.ts';
import { FINISHED_RUN_STATES, type RunState } from '../../shared/definition/names.ts';
import { sha256 } from './canonical-json.ts';
import { definitionContent } from './definition-content.ts';
import type Database from 'better-sqlite3';
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { CommitListeners, type CommitListener, type CommittedEvent } from './commit-listeners.ts';
import { RunRollups, type RolledUpRun } from './run-rollups.ts';
import type { WorkflowRollups } from './workflow-rollups.ts';

export type { CommitListener, CommittedEvent } from './commit-listeners.ts';

/** A page of one run's log: the events with seq > `after` (default 0), at most `limit` of them. */
export interface RunEventPage {
  after?: number;
  limit?: number;
}

/** A page of the whole store's log: events with cursor > the given one, of `runs` (default all). */
export interface CursorPage {
  runs?: readonly string[] | 'all';
  /** At most this many events (default 1,000). */
  limit?: number;
  /**
   * Stop once the events read hold this many characters of stored data (the event that passes it
   * included, so a page has at least one event): a page of events that each hold megabytes
   * stays small.
   */
  maxChars?: number;
}

const DEFAULT_CURSOR_PAGE = 1_000;

export interface NewEvent<T extends EventType = EventType> {
  runId: string;
  type: T;
  at: number;
  step?: string | null;
  activation?: number | null;
  attempt?: number | null;
  data: EventData<T>;
  reason?: string | null;
}

export interface RunRow {
  id: string;
  /** The idempotency key a run was created with (weft run --key), if any. */
  key?: string | null;
  workflowId: string;
  version: number;
  state: RunState;
  inputRevision: number;
  createdAt: number;
  updatedAt: number;
}

export interface StepProjection {
  stepId: string;
  activation: number;
  state: string;
  attempts: number;
  evidenceId: string | null;
}

export interface ExternalEvent {
  id: string;
  name: string;
  key: string;
  data: unknown;
  receivedAt: number;
}

export interface StoreStats {
  commits: number;
  durableCommits: number;
  rows: number;
  bytes: number;
}

const CHUNK = 64;

type Row = [string, number, number, string, string | null, number | null, number | null, string, string | null];

export class Store {
  readonly stats: StoreStats = { commits: 0, durableCommits: 0, rows: 0, bytes: 0 };
  private readonly seqs = new Map<string, number>();
  private pending: Row[] = [];
  /** The events of `pending`, as append returned them: what listeners get after the commit. */
  private pendingEvents: RunEvent[] = [];
  private readonly listeners = new CommitListeners();
  private readonly pendingRuns = new Map<string, RunRow>();
  private readonly pendingSteps = new Map<string, Map<string, StepProjection>>();
  private readonly pendingStepClears = new Set<string>();
  private pendingConsumed: [string, string, string][] = [];
  private pendingClearAll = false;
  private readonly insertEvent;
  private readonly insertEvents;
  private readonly upsertRun;
  private readonly upsertStep;
  private readonly clearSteps;
  private readonly writeBatch;
  private readonly rollups: RunRollups;

  constructor(readonly db: Db) {
    this.rollups = new RunRollups(db, (runId) => this.readRunLog(runId));
    this.insertEvent = db.prepare('INSERT INTO events (run_id, seq, at, type, step, activation, attempt, data, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    // Many rows per statement: one call into SQLite per CHUNK events instead of per event.
    this.insertEvents = db.prepare(`INSERT INTO events (run_id, seq, at, type, step, activation, attempt, data, reason) VALUES ${Array.from({ length: CHUNK }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`);
    this.upsertRun = db.prepare(
      'INSERT INTO runs (id, workflow_id, version, state, input_revision, created_at, updated_at, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state, input_revision = excluded.input_revision, updated_at = excluded.updated_at',
    );
    this.upsertStep = db.prepare(
      'INSERT INTO step_states (run_id, step_id, activation, state, attempts, evidence_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, step_id) DO UPDATE SET activation = excluded.activation, state = excluded.state, attempts = excluded.attempts, evidence_id = excluded.evidence_id',
    );
    this.clearSteps = db.prepare('DELETE FROM step_states WHERE run_id = ?');
    const consume = db.prepare('UPDATE external_events SET consumed_run = ?, consumed_step = ? WHERE id = ?');
    this.writeBatch = db.transaction((rows: Row[], events: readonly RunEvent[], runs: RunRow[], steps: [string, StepProjection][], clears: string[], consumed: [string, string, string][], clearAll: boolean) => {
      if (clearAll) db.exec('DELETE FROM step_states');
      for (const id of clears) this.clearSteps.run(id);
      for (const [runId, stepId, id] of consumed) consume.run(runId, stepId, id);
      // The cursor is the rowid SQLite assigns (migration 7): consecutive within this
      // transaction, which holds the write lock, so the last one gives all of them.
      let lastCursor = 0;
      let k = 0;
      for (; k + CHUNK <= rows.length; k += CHUNK) lastCursor = Number(this.insertEvents.run(rows.slice(k, k + CHUNK).flat()).lastInsertRowid);
      for (; k < rows.length; k++) lastCursor = Number(this.insertEvent.run(rows[k]).lastInsertRowid);
      for (const r of runs) this.upsertRun.run(r.id, r.workflowId, r.version, r.state, r.inputRevision, r.createdAt, r.updatedAt, r.key ?? null);
      for (const [runId, s] of steps) this.upsertStep.run(runId, s.stepId, s.activation, s.state, s.attempts, s.evidenceId);
      // In this transaction: a rollup is never committed without its events, nor they without it.
      this.rollups.afterWrite(events);
      return lastCursor;
    });
  }

  private readonly statements = new Map<string, Database.Statement>();
  private readonly definitions = new Map<string, { workflow: Workflow; hash: string }>();

  /** Statements are prepared once per store, not once per call (recovery reads thousands of runs). */
  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (st === undefined) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  // ---- definitions ----

  /**
   * Stores the snapshot of a definition version, or checks it against the one stored. The editor's
   * `layout` and `$schema` are not part of the content: moving a box does not need a new version.
   */
  saveDefinition(workflow: Workflow, now: number): string {
    const text = definitionContent(workflow);
    const hash = sha256(text);
    const row = this.stmt('SELECT hash FROM definitions WHERE workflow_id = ? AND version = ?').get(workflow.id, workflow.version) as { hash: string } | undefined;
    if (row === undefined) {
      this.stmt('INSERT INTO definitions (workflow_id, version, hash, content, created_at) VALUES (?, ?, ?, ?, ?)').run(workflow.id, workflow.version, hash, text, now);
    } else if (row.hash !== hash) {
      throw new StoreError(
        'definition-conflict',
        `workflow "${workflow.id}" version ${workflow.version} has already run with different content; a version that has run is immutable: bump "version" to ${workflow.version + 1} (or higher) in the file`,
      );
    }
    return hash;
  }

  loadDefinition(workflowId: string, version: number): { workflow: Workflow; hash: string } | undefined {
    // One parsed object per version: runs of a version share it (and the runtime's index of it).
    const key = `${workflowId}@${version}`;
    const hit = this.definitions.get(key);
    if (hit) return hit;
    const row = this.stmt('SELECT content, hash FROM definitions WHERE workflow_id = ? AND version = ?').get(workflowId, version) as { content: string; hash: string } | undefined;
    if (row === undefined) return undefined;
    const loaded = { workflow: snapshotWorkflow(row.content, workflowId, version), hash: row.hash };
    this.definitions.set(key, loaded);
    return loaded;
  }

  // ---- events ----

  /** Adds an event to the current batch; it is durable after the next flush(). */
  append<T extends EventType>(e: NewEvent<T>): RunEvent<T> {
    const seq = this.nextSeq(e.runId);
    const event: RunEvent<T> = {
      runId: e.runId,
      seq,
      at: e.at,
      type: e.type,
      step: e.step ?? null,
      activation: e.activation ?? null,
      attempt: e.attempt ?? null,
      data: e.data,
      reason: e.reason ?? null,
    };
    const data = JSON.stringify(e.data);
    this.pending.push([e.runId, seq, e.at, e.type, event.step, event.activation, event.attempt, data, event.reason]);
    this.pendingEvents.push(widenEvent(event));
    this.stats.bytes += data.length;
    return event;
  }

  setRunProjection(run: RunRow): void {
    this.pendingRuns.set(run.id, run);
  }

  setStepProjection(runId: string, step: StepProjection): void {
    this.pendingStepClears.delete(runId);
    let m = this.pendingSteps.get(runId);
    if (m === undefined) this.pendingSteps.set(runId, (m = new Map()));
    m.set(step.stepId, step);
  }

  /** A finished run keeps no step rows: its steps are read from its log (weft inspect). */
  clearStepProjection(runId: string): void {
    this.pendingSteps.delete(runId);
    this.pendingStepClears.add(runId);
  }

  get hasPending(): boolean {
    return this.pending.length > 0 || this.pendingRuns.size > 0 || this.pendingConsumed.length > 0 || this.pendingClearAll;
  }

  /** Writes the batch in one transaction; with `durable`, that commit is fsynced. */
  flush(durable = false): void {
    if (!this.hasPending) return;
    const rows = this.pending;
    const events = this.pendingEvents;
    const runs = [...this.pendingRuns.values()];
    const steps: [string, StepProjection][] = [];
    for (const [runId, m] of this.pendingSteps) for (const s of m.values()) steps.push([runId, s]);
    const clears = [...this.pendingStepClears];
    const consumed = this.pendingConsumed;
    const clearAll = this.pendingClearAll;
    this.pendingClearAll = false;
    this.pendingConsumed = [];
    this.pending = [];
    this.pendingEvents = [];
    this.pendingRuns.clear();
    this.pendingSteps.clear();
    this.pendingStepClears.clear();
    let lastCursor: number;
    try {
      if (durable) this.db.pragma('synchronous = FULL');
      lastCursor = this.writeBatch(rows, events, runs, steps, clears, consumed, clearAll);
    } catch (e) {
      // Nothing of the batch was written: forget its sequence numbers so the log stays gapless.
      for (const r of rows) this.seqs.delete(r[0]);
      throw e;
    } finally {
      if (durable) this.db.pragma('synchronous = NORMAL');
    }
    this.stats.commits++;
    if (durable) this.stats.durableCommits++;
    this.stats.rows += rows.length + runs.length + steps.length + clears.length;
    // Committed: now, and only now, subscribers hear of the events.
    if (this.listeners.size > 0 && events.length > 0) {
      const first = lastCursor - events.length + 1;
      this.listeners.publish(events.map((event, i) => ({ cursor: first + i, event, dataJson: rows[i]?.[7] })));
    }
  }

  /**
   * Calls `listener` with each event after the commit that wrote it, in commit order, with its
   * global cursor; returns the function that unsubscribes. A listener that throws is skipped
   * (its error goes to `onError`, if given) and never stops the engine. Listeners hear this
   * store's own commits; a client in another process reads by cursor (readEventsAfter).
   *
   * @example
   * const stop = store.subscribe(({ cursor, event }) => send(cursor, event), (e) => log(e));
   */
  subscribe(listener: CommitListener, onError?: (error: unknown) => void): () => void {
    return this.listeners.add(listener, onError);
  }

  /** A run's log in seq order: all of it, or the page after `after` of at most `limit` events. */
  readEvents(runId: string, page: RunEventPage = {}): RunEvent[] {
    const after = wholeNumber('after', page.after ?? 0, 0);
    // SQLite reads a negative LIMIT as "no limit".
    const limit = page.limit === undefined ? -1 : wholeNumber('limit', page.limit, 1);
    const rows = this.stmt('SELECT run_id, seq, at, type, step, activation, attempt, data, reason FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .raw()
      .all(runId, after, limit) as Row[];
    gapless(runId, rows, after);
    return rows.map(toEvent);
  }

  /**
   * A run's whole log in seq order, for the engine's fold, without the schema check of each
   * event's data that readEvents makes (why that is safe: the header). Types, JSON and gaps are
   * still checked.
   *
   * @example const model = foldEvents(workflow, store.readRunLog('r1'));
   */
  readRunLog(runId: string): RunEvent[] {
    const rows = this.stmt('SELECT run_id, seq, at, type, step, activation, attempt, data, reason FROM events WHERE run_id = ? ORDER BY seq').raw().all(runId) as Row[];
    gapless(runId, rows, 0);
    return rows.map(toLoggedEvent);
  }

  /**
   * The events committed after `cursor`, in commit order, of every run or of the runs named: what
   * a client that saw everything up to `cursor` has missed. Pass the last cursor of a page to
   * get the next one; an empty page means nothing newer is committed yet.
   */
  readEventsAfter(cursor: number, page: CursorPage = {}): CommittedEvent[] {
    const after = wholeNumber('cursor', cursor, 0);
    const limit = wholeNumber('limit', page.limit ?? DEFAULT_CURSOR_PAGE, 1);
    const runs = page.runs ?? 'all';
    const columns = 'cursor, run_id, seq, at, type, step, activation, attempt, data, reason';
    const statement = runs === 'all'
      ? this.stmt(`SELECT ${columns} FROM events WHERE cursor > ? ORDER BY cursor LIMIT ?`).raw()
      : this.stmt(`SELECT ${columns} FROM events WHERE cursor > ? AND run_id IN (SELECT value FROM json_each(?)) ORDER BY cursor LIMIT ?`).raw();
    const params = runs === 'all' ? [after, limit] : [after, JSON.stringify(runs), limit];
    const maxChars = page.maxChars === undefined ? undefined : wholeNumber('maxChars', page.maxChars, 1);
    if (maxChars === undefined) return (statement.all(...params) as [number, ...Row][]).map(([c, ...row]) => ({ cursor: c, event: toEvent(row), dataJson: row[7] }));
    // Row by row, so the rows past the budget are never read into memory.
    const out: CommittedEvent[] = [];
    let chars = 0;
    for (const [c, ...row] of statement.iterate(...params) as IterableIterator<[number, ...Row]>) {
      out.push({ cursor: c, event: toEvent(row), dataJson: row[7] });
      chars += row[7].length;
      if (chars >= maxChars) break;
    }
    return out;
  }

  /** A run created by this engine: its log starts empty, no need to ask the database. */
  newRun(runId: string): void {
    this.seqs.set(runId, 0);
  }

  /** The last sequence number of a run whose log was just read (saves a query per run on recovery). */
  knownLastSeq(runId: string, seq: number): void {
    if (!this.seqs.has(runId)) this.seqs.set(runId, seq);
  }

  private nextSeq(runId: string): number {
    let last = this.seqs.get(runId);
    if (last === undefined) {
      const row = this.stmt('SELECT MAX(seq) AS m FROM events WHERE run_id = ?').get(runId) as { m: number | null };
      last = row.m ?? 0;
    }
    this.seqs.set(runId, last + 1);
    return last + 1;
  }

  // ---- external events ----

  /**
   * Records an event sent from outside (weft send), in its own commit: once this returns, the
   * event is kept until a run consumes it. A repeated id is counted and ignored.
   */
  receiveExternalEvent(e: ExternalEvent): 'new' | 'duplicate' {
    const inserted = this.stmt('INSERT INTO external_events (id, name, key, data, received_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(e.id, e.name, e.key, JSON.stringify(e.data ?? null), e.receivedAt);
    if (inserted.changes === 1) return 'new';
    this.stmt('UPDATE external_events SET duplicates = duplicates + 1 WHERE id = ?').run(e.id);
    return 'duplicate';
  }

  /**
   * The oldest event with this name and key that no run has consumed, in the store or in the
   * batch not yet written (or none); events named in `except` are passed over.
   */
  findExternalEvent(name: string, key: string, except: ReadonlySet<string> = new Set()): ExternalEvent | undefined {
    const rows = this.stmt('SELECT id, name, key, data, received_at FROM external_events WHERE name = ? AND key = ? AND consumed_run IS NULL ORDER BY received_at, id').iterate(name, key) as IterableIterator<
      { id: string; name: string; key: string; data: string; received_at: number }
    >;
    for (const row of rows) {
      if (except.has(row.id) || this.pendingConsumed.some((c) => c[2] === row.id)) continue;
      rows.return?.();
      return { id: row.id, name: row.name, key: row.key, data: JSON.parse(row.data) as unknown, receivedAt: row.received_at };
    }
    return undefined;
  }

  /** Names and keys of the events stored that no run has consumed yet (the partial index). */
  unconsumedEventKeys(): { name: string; key: string }[] {
    return this.stmt('SELECT DISTINCT name, key FROM external_events WHERE consumed_run IS NULL ORDER BY name, key').all() as { name: string; key: string }[];
  }

  /** Marks an event consumed, in the same commit as the run events that record its delivery. */
  consumeExternalEvent(id: string, runId: string, stepId: string): void {
    this.pendingConsumed.push([runId, stepId, id]);
  }

  hasExternalEvent(id: string): boolean {
    return this.stmt('SELECT 1 FROM external_events WHERE id = ?').get(id) !== undefined;
  }

  /** The run (and step) that consumed the event, in the store or in the batch not yet written. */
  externalEventConsumer(id: string): { runId: string; stepId: string } | undefined {
    const pending = this.pendingConsumed.find((c) => c[2] === id);
    if (pending !== undefined) return { runId: pending[0], stepId: pending[1] };
    const row = this.stmt('SELECT consumed_run, consumed_step FROM external_events WHERE id = ?').get(id) as { consumed_run: string | null; consumed_step: string | null } | undefined;
    return row?.consumed_run ? { runId: row.consumed_run, stepId: row.consumed_step ?? '' } : undefined;
  }

  // ---- runs ----

  /**
   * The runs of a workflow (of one version if given), oldest first, each with its finished
   * metrics' JSON from the rollups (run-rollups.ts), or null for a run still going.
   */
  rolledUpRuns(workflowId: string, version?: number): RolledUpRun[] {
    return this.rollups.runsOf(workflowId, version);
  }

  /** A finished run's metrics' JSON from its rollup; undefined while it is not finished. */
  rolledUpMetricsOf(runId: string): string | undefined {
    return this.rollups.metricsOf(runId);
  }

  /** The per-workflow counters and samples of finished runs (workflow-rollups.ts), for stats. */
  workflowRollups(): WorkflowRollups {
    return this.rollups.workflows;
  }

  getRun(runId: string): RunRow | undefined {
    const r = this.stmt('SELECT id, workflow_id, version, state, input_revision, created_at, updated_at FROM runs WHERE id = ?').raw().get(runId) as
      | [string, string, number, RunState, number, number, number]
      | undefined;
    return r === undefined ? undefined : toRunRow(r);
  }

  /** Resolves a full run id or a unique prefix of one. */
  resolveRunId(idOrPrefix: string): string {
    if (this.getRun(idOrPrefix)) return idOrPrefix;
    // A range on the key, not LIKE: any length of prefix works (LIKE refuses long patterns) and
    // the primary key is used. Every id that starts with the prefix sorts between the two bounds.
    const rows = idOrPrefix === '' ? [] : (this.stmt('SELECT id FROM runs WHERE id >= ? AND id < ? ORDER BY id LIMIT 3').all(idOrPrefix, `${idOrPrefix}\u{10FFFF}`) as { id: string }[]);
    if (rows.length === 1 && rows[0]) return rows[0].id;
    // A run in the log whose row is missing (left by an older engine's crash) is still a run.
    if (rows.length === 0 && this.hasEvents(idOrPrefix)) return idOrPrefix;
    if (rows.length === 0) throw new StoreError('unknown-run', `no run ${quoteRunId(idOrPrefix)} in this store; list runs with \`weft runs\``);
    throw new StoreError('unknown-run', `${quoteRunId(idOrPrefix)} matches several runs (${rows.map((r) => r.id).join(', ')}…); give more of the id`);
  }

  listRuns(limit = 50): RunRow[] {
    const rows = this.stmt('SELECT id, workflow_id, version, state, input_revision, created_at, updated_at FROM runs ORDER BY created_at DESC, id DESC LIMIT ?').raw().all(limit) as [string, string, number, RunState, number, number, number][];
    return rows.map(toRunRow);
  }

  /** Unfinished runs that have a step waiting (from the step projection). */
  runsWithWaitingSteps(): string[] {
    return (this.stmt("SELECT DISTINCT run_id AS id FROM step_states WHERE state = 'waiting' ORDER BY run_id").all() as { id: string }[]).map((r) => r.id);
  }

  /** The run created earlier with this idempotency key (weft run --key), if any. */
  runByKey(workflowId: string, key: string): string | undefined {
    const row = this.stmt('SELECT id FROM runs WHERE workflow_id = ? AND idempotency_key = ?').get(workflowId, key) as { id: string } | undefined;
    return row?.id;
  }

  /** Runs of a workflow in state running (the projection), for limits.maxParallelRuns. */
  runningRunIds(workflowId: string): string[] {
    return (this.stmt("SELECT id FROM runs WHERE workflow_id = ? AND state = 'running'").all(workflowId) as { id: string }[]).map((r) => r.id);
  }

  /** Runs of a workflow (of one version if given), oldest first. */
  runIdsOfWorkflow(workflowId: string, version?: number): string[] {
    const rows = version === undefined
      ? this.stmt('SELECT id FROM runs WHERE workflow_id = ? ORDER BY created_at, id').all(workflowId)
      : this.stmt('SELECT id FROM runs WHERE workflow_id = ? AND version = ? ORDER BY created_at, id').all(workflowId, version);
    return (rows as { id: string }[]).map((r) => r.id);
  }

  /** Workflow ids with a stored definition, and the latest version of each. */
  workflowVersions(): Map<string, number> {
    const rows = this.stmt('SELECT workflow_id AS id, MAX(version) AS version FROM definitions GROUP BY workflow_id ORDER BY workflow_id').all() as { id: string; version: number }[];
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  unfinishedRunIds(): string[] {
    const rows = this.stmt(`SELECT id FROM runs WHERE state NOT IN (${FINISHED_RUN_STATES.map((s) => `'${s}'`).join(', ')}) ORDER BY created_at, id`).all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  stepProjections(runId: string): StepProjection[] {
    return (this.stmt('SELECT step_id, activation, state, attempts, evidence_id FROM step_states WHERE run_id = ? ORDER BY step_id').raw().all(runId) as [string, number, string, number, string | null][]).map(
      ([stepId, activation, state, attempts, evidenceId]) => ({ stepId, activation, state, attempts, evidenceId }),
    );
  }

  /**
   * Deletes every step projection row in the next flush, before the rows the caller then sets
   * (runs keep their identity columns): a rebuild is one transaction, never half done.
   */
  clearProjections(): void {
    this.pendingClearAll = true;
  }

  hasEvents(runId: string): boolean {
    return this.stmt('SELECT 1 FROM events WHERE run_id = ? LIMIT 1').get(runId) !== undefined;
  }

  /**
   * Runs with events in the log but no row in `runs` (an older engine committed a child run's
   * creation and its row separately, and a crash between them orphaned the child). The log's run
   * ids are walked one index seek each, so this costs one lookup per run, not one per event.
   */
  runsWithoutRow(): string[] {
    const rows = this.stmt(`
      WITH RECURSIVE ids(id) AS (
        SELECT MIN(run_id) FROM events
        UNION ALL
        SELECT (SELECT MIN(run_id) FROM events WHERE run_id > ids.id) FROM ids WHERE ids.id IS NOT NULL
      )
      SELECT id FROM ids WHERE id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.id = ids.id)`).all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Every run with events in the log (projections are rebuilt from these). */
  loggedRunIds(): string[] {
    return (this.stmt('SELECT DISTINCT run_id AS id FROM events').all() as { id: string }[]).map((r) => r.id);
  }
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new StoreError('bad-input', `${name} must be a whole number ≥ ${min}, not ${value}`);
  return value;
}

/** A run id as given, quoted for a message; a very long one is cut, with its length. */
function quoteRunId(id: string): string {
  return id.length > 60 ? `"${id.slice(0, 40)}…" (${id.length} characters)` : JSON.stringify(id);
}

function toRunRow([id, workflowId, version, state, inputRevision, createdAt, updatedAt]: [string, string, number, RunState, number, number, number]): RunRow {
  return { id, workflowId, version, state, inputRevision, createdAt, updatedAt };
}

/** A run's log is gapless from 1: a hole means rows were lost, and folding past it would build a run that never was. */
function gapless(runId: string, rows: readonly Row[], after: number): void {
  // A page starts right after `after`, so its k-th row is after+k+1.
  rows.forEach((r, k) => {
    if (r[1] !== after + k + 1) throw new StoreError('damaged', `run ${runId} has a gap in its event log: event ${after + k + 1} is missing; the store is damaged (restore it from a backup)`);
  });
}

/** A row's type, if this Weft knows it, and its data parsed as JSON; else the damage, named. */
function rowParts([runId, seq, , type, , , , data]: Row): { where: string; known: EventType; parsed: unknown } {
  const where = `run ${runId} event ${seq}`;
  if (!isEventType(type)) {
    throw new StoreError('damaged', `${where}: unknown event type ${JSON.stringify(type)}; the store is damaged, or was written by a newer Weft (use that Weft to read it)`);
  }
  try {
    return { where, known: type, parsed: JSON.parse(data) };
  } catch {
    throw new StoreError('damaged', `${where}: stored data is not JSON; the store is damaged`);
  }
}

function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_DATA, type);
}

/** A row as an event, its data checked against the schema of its type. */
function toEvent(row: Row): RunEvent {
  const { where, known, parsed } = rowParts(row);
  const [runId, seq, at, , step, activation, attempt, , reason] = row;
  try {
    return widenEvent(runEvent(known, parseEventData(known, parsed, where), { runId, seq, at, step, activation, attempt, reason }));
  } catch (e) {
    throw new StoreError('damaged', `${(e as Error).message}; the store is damaged, or was written by a newer Weft`);
  }
}

/** A row as an event, its data taken as append() wrote it (readRunLog): an object, not re-parsed. */
function toLoggedEvent(row: Row): RunEvent {
  const { where, known, parsed } = rowParts(row);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new StoreError('damaged', `${where}: ${known} event data is not an object; the store is damaged`);
  }
  // The one unchecked step from stored JSON to typed data; the header says why it is sound.
  const data = parsed as EventData<typeof known>;
  return widenEvent(runEvent(known, data, { runId: row[0], seq: row[1], at: row[2], step: row[4], activation: row[5], attempt: row[6], reason: row[8] }));
}

/** A stored definition is checked like a file: a run folded over a non-workflow would crash later. */
export function snapshotWorkflow(content: string, workflowId: string, version: number): Workflow {
  const what = `the definition snapshot of workflow ${JSON.stringify(workflowId)} version ${version}`;
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    throw new StoreError('damaged', `${what} is not JSON; the store is damaged`);
  }
  const checked = Workflow.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new StoreError('damaged', `${what} is not a workflow (${issue === undefined ? 'invalid' : `$${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`}); the store is damaged`);
  }
  // The schema's output, not the raw JSON cast: what the fold sees is what the schema vouches for.
  return checked.data;
}
