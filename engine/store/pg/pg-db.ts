// A better-sqlite3-shaped connection over PostgreSQL (issue 25): the SqlDb the store's modules use
// (sql-db.ts), running on a PgSync (pg-sync.ts), so the store keeps its synchronous shape on both
// databases. The store's SQLite SQL is translated by the function given (pg-dialect.ts's
// translateSql), once per text.
// Transactions are BEGIN/COMMIT/ROLLBACK on PgSync's one connection (deferred, immediate and
// exclusive alike: PostgreSQL locks rows as it writes them), nested ones SAVEPOINTs, as
// better-sqlite3 does; an exception in the function rolls back and is thrown on. Inside a
// transaction the writes are pipelined: run() queues its statement and returns at once, with a
// result whose `changes` and `lastInsertRowid` send the queue when read. A read (get, all,
// iterate) or the COMMIT sends the queue with it in one batch, so a transaction of N writes is one
// round trip. A queued statement that fails fails the transaction where its queue is sent (the
// error names it), and the transaction rolls back. A transaction whose function throws before
// anything was sent costs no round trip at all.
// lastInsertRowid: PostgreSQL has no rowid. It is the first column of the last row a statement
// returned, for a statement with a RETURNING clause (`INSERT ... RETURNING cursor`), else 0.
import { StoreError } from '../store-error.ts';
import { PgDbStatement, type StatementRunner, type Translation, type TranslateSql } from './pg-db-statement.ts';
import { PgSyncError, type PgAnswer, type PgStatement, type PgSync } from './pg-sync.ts';
import type { SqlArgs, SqlDb, SqlRunResult, SqlTransaction, SqlTransactionBody } from './sql-db.ts';

export type { Translation, TranslateSql } from './pg-db-statement.ts';

const RETURNING = /\bRETURNING\b/i;

/** The result of a run(): known once its statement was sent (at once outside a transaction). */
class PendingRun implements SqlRunResult {
  answer: PgAnswer | undefined;
  failed: Error | undefined;

  constructor(
    private readonly send: () => void,
    private readonly returning: boolean,
  ) {}

  get changes(): number {
    return this.settled().rowCount;
  }

  get lastInsertRowid(): number | bigint {
    const rows = this.settled().rows;
    const last = rows[rows.length - 1] as unknown[] | undefined;
    if (!this.returning || last === undefined) return 0;
    const id = last[0];
    return typeof id === 'number' || typeof id === 'bigint' ? id : Number(id);
  }

  private settled(): PgAnswer {
    if (this.answer === undefined && this.failed === undefined) this.send();
    if (this.failed !== undefined) throw this.failed;
    return this.answer as PgAnswer;
  }
}

/** A statement waiting in the queue, with the store's text of it (for errors) and the run() result it settles. */
interface Queued {
  statement: PgStatement;
  source: string;
  run?: PendingRun;
}

function plain(text: string): Queued {
  return { statement: { text, values: [], rowMode: 'array' }, source: text };
}

function refusePromise(result: unknown): void {
  if (typeof (result as { then?: unknown } | null)?.then === 'function') throw new TypeError('Transaction function cannot return a promise');
}

/**
 * The store's connection on PostgreSQL.
 * @example
 * const db = new PgDb(PgSync.open(url), translateSql);
 * db.transaction(() => { for (const r of rows) insert.run(r.id, r.name); })(); // one round trip
 */
export class PgDb implements SqlDb, StatementRunner {
  /** Which SQL the connection speaks, for the few callers whose statements differ (copy-store.ts's snapshot). */
  readonly dialect = 'postgres';
  private readonly translations = new Map<string, Translation>();
  private queue: Queued[] = [];
  /** 0 outside a transaction, 1 in one, one more per savepoint. */
  private depth = 0;
  /** A statement of the open transaction failed, at this depth: nothing more is sent until a savepoint above it rolls back. */
  private failure: { error: Error; depth: number; lost: boolean } | undefined;
  private readonly closeHooks: (() => void)[] = [];

  constructor(
    readonly pg: PgSync,
    private readonly translate: TranslateSql,
  ) {}

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  prepare(source: string): PgDbStatement {
    return new PgDbStatement(this, source, this.translated(source));
  }

  /** Runs `source` (one or several statements, no parameters); queued like run() inside a transaction. */
  exec(source: string): this {
    this.write(source, this.translated(source).text, []);
    return this;
  }

  /**
   * PRAGMAs are SQLite's. The one the store sets while it runs has a PostgreSQL meaning:
   * `synchronous = FULL` (the commit recording an external attempt's start waits for the disk)
   * and `= NORMAL` are the session's synchronous_commit on and off. Any other is refused, clearly.
   */
  pragma(source: string): unknown {
    const sync = /^\s*synchronous\s*=\s*(FULL|NORMAL)\s*$/i.exec(source)?.[1];
    if (sync === undefined) throw new StoreError('refused', `PRAGMA ${source} is SQLite's and means nothing on PostgreSQL; the store must not call it on a PostgreSQL store`);
    this.exec(`SET synchronous_commit TO ${sync.toUpperCase() === 'FULL' ? 'on' : 'off'}`);
    return [];
  }

  close(): this {
    const hooks = this.closeHooks.splice(0);
    for (const hook of hooks) hook();
    this.pg.close();
    return this;
  }

  /** Calls `hook` as the connection closes, before it ends (the store's log tail stops). */
  onClose(hook: () => void): void {
    this.closeHooks.push(hook);
  }

  transaction<F extends SqlTransactionBody>(fn: F): SqlTransaction<F> {
    const call = (...params: SqlArgs<F>): ReturnType<F> => (this.depth === 0 ? this.outer(fn, params) : this.nested(fn, params)) as ReturnType<F>;
    return Object.assign(call, { deferred: call, immediate: call, exclusive: call });
  }

  /** StatementRunner: sends now outside a transaction, queues inside one. */
  write(source: string, text: string, values: readonly unknown[]): SqlRunResult {
    const run = new PendingRun(() => this.send(), RETURNING.test(text));
    const entry: Queued = { statement: { text, values, rowMode: 'array' }, source, run };
    if (this.depth === 0) this.send(entry);
    else {
      this.refuseIfFailed();
      this.queue.push(entry);
    }
    return run;
  }

  /** StatementRunner: sends the queue and this statement in one batch. */
  read(source: string, text: string, values: readonly unknown[]): { rows: unknown[][]; fields: string[] } {
    const answer = this.send({ statement: { text, values, rowMode: 'array' }, source }) as PgAnswer;
    return { rows: answer.rows as unknown[][], fields: answer.fields };
  }

  private translated(source: string): Translation {
    let t = this.translations.get(source);
    if (t === undefined) this.translations.set(source, (t = this.translate(source)));
    return t;
  }

  /** Sends the queue, then `last`, in one batch; the answer of the last statement sent. */
  private send(last?: Queued): PgAnswer | undefined {
    if (this.depth > 0) this.refuseIfFailed();
    const entries = last === undefined ? this.queue : [...this.queue, last];
    this.queue = [];
    if (entries.length === 0) return undefined;
    let answers: PgAnswer[];
    try {
      answers = this.pg.batch(entries.map((e) => e.statement));
    } catch (e) {
      const index = e instanceof PgSyncError ? e.index : -1;
      const source = entries[index]?.source;
      const error = e instanceof PgSyncError && source !== undefined && source !== e.text ? new PgSyncError(`${e.message}; the store's SQL: ${source}`, e.code, e.index, e.text, e.detail, e.constraint) : (e as Error);
      const unknown = new StoreError('io', `the statement's result is not known: its transaction failed (${error.message})`);
      entries.forEach((entry, k) => entry.run !== undefined && (entry.run.failed = k === index ? error : unknown));
      if (this.depth > 0) this.failure = { error, depth: this.depth, lost: !(e instanceof PgSyncError) };
      throw error;
    }
    entries.forEach((entry, k) => entry.run !== undefined && (entry.run.answer = answers[k]));
    return answers[answers.length - 1];
  }

  private refuseIfFailed(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Queued runs that will never be sent: their results say so when read. */
  private drop(entries: readonly Queued[]): void {
    const dropped = new StoreError('io', 'the statement was not run: its transaction (or savepoint) was rolled back');
    for (const entry of entries) if (entry.run !== undefined) entry.run.failed = dropped;
  }

  private outer(fn: SqlTransactionBody, params: readonly unknown[]): unknown {
    const begin = plain('BEGIN');
    this.failure = undefined;
    this.queue.push(begin);
    this.depth = 1;
    try {
      const result = (fn as (...p: readonly unknown[]) => unknown)(...params);
      refusePromise(result);
      // A failure the function caught: PostgreSQL has aborted the transaction, and its COMMIT would only roll back.
      this.refuseIfFailed();
      this.send(plain('COMMIT'));
      return result;
    } catch (e) {
      const sent = this.queue[0] !== begin;
      this.drop(this.queue);
      this.queue = [];
      if (sent) this.rollback();
      throw e;
    } finally {
      this.depth = 0;
      this.failure = undefined;
    }
  }

  private rollback(): void {
    try {
      this.pg.batch([plain('ROLLBACK').statement]);
    } catch {
      // The connection is gone (its transaction with it) or closed: nothing of the transaction stays.
    }
  }

  private nested(fn: SqlTransactionBody, params: readonly unknown[]): unknown {
    this.refuseIfFailed();
    const name = `weft_savepoint_${this.depth}`;
    const mark = this.queue.length;
    const savepoint = plain(`SAVEPOINT ${name}`);
    this.queue.push(savepoint);
    this.depth++;
    try {
      const result = (fn as (...p: readonly unknown[]) => unknown)(...params);
      refusePromise(result);
      this.queue.push(plain(`RELEASE ${name}`));
      return result;
    } catch (e) {
      if (this.queue[mark] === savepoint) {
        // Nothing since the savepoint was sent: drop it rather than send and undo it.
        this.drop(this.queue.slice(mark));
        this.queue.length = mark;
      } else {
        // The savepoint was sent, and with it all queued before it: what is queued now is inside it.
        this.drop(this.queue);
        this.queue = [plain(`ROLLBACK TO ${name}`), plain(`RELEASE ${name}`)];
        // The rollback to the savepoint undoes a failure inside it (unless the connection was lost).
        if (this.failure !== undefined && !this.failure.lost && this.failure.depth >= this.depth) this.failure = undefined;
      }
      throw e;
    } finally {
      this.depth--;
    }
  }
}
