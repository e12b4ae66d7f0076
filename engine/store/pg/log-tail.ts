// The log tail of a PostgreSQL store (issue 25, docs/postgres.md): several engines (workers, a
// `weft serve`) commit to one store, and a process's commit listeners (store.subscribe: the WS
// stream of `weft serve`) must hear every engine's commits, not only its own. The tail LISTENs on
// the store's channel (logChannel: each commit that appends events notifies it, once per
// transaction), and on each notification, and every POLL_MS as a safety net (a notification is
// missed while the LISTEN connection is down: PgSync reports that gap, and the tail reads anyway),
// reads the log after the last cursor it published (readEventsAfter, page by page until caught up)
// and publishes it. This process's own commits are published as they commit, as on SQLite, through
// committed(): when another engine committed meanwhile, the tail first reads those (cursors are
// commit-ordered with no hole, so every cursor below this commit's first is committed already).
// So each subscriber hears every event once, in cursor order. The cursor says what was published:
// nothing at or below it is published again.
// The tail runs while the store has subscribers (started by the first, stopped with the last) and
// stops for good when the connection closes. A read that fails (the connection was lost) is
// retried at the next notification or poll, from the same cursor.
import type { CommitListeners, CommittedEvent } from '../commit-listeners.ts';
import { StoreError } from '../store-error.ts';
import { logChannel } from './pg-coordination-sql.ts';

/** How often the tail reads the log without a notification: the bound on a missed one's delay (WEFT_PG_TAIL_POLL_MS). */
export const LOG_TAIL_POLL_MS = 1_500;
/** Events read per page while catching up. */
const PAGE = 500;

/** What the tail needs of the store and its connection (pgLogTailSource gives a PostgreSQL store's). */
export interface LogTailSource {
  /** The events committed after `cursor`, in cursor order, at most `limit`. */
  readAfter(cursor: number, limit: number): CommittedEvent[];
  /** The newest cursor committed. */
  lastCursor(): number;
  /** Calls `onChange` on each notification of a commit, and after a gap in the notifications; answers the function that stops. */
  listen(onChange: () => void): () => void;
  /** The connection is closed for good: the tail stops. */
  readonly closed: boolean;
}

/** The PostgreSQL connection of a store, as far as the tail uses it (a PgDb's). */
export interface TailConnection {
  readonly dialect: string;
  readonly pg: {
    readonly closed: boolean;
    query(text: string): { rows: readonly unknown[] };
    listen(channel: string, onNotify: (payload: string) => void, onGap?: () => void): () => void;
  };
  onClose(hook: () => void): void;
}

/** The store's log as the tail reads it (EventLog's). */
export interface TailReads {
  readEventsAfter(cursor: number, page: { limit: number }): CommittedEvent[];
  lastCursor(): number;
}

/**
 * The tail of the store on `db` when it is PostgreSQL's (undefined on SQLite, where one engine
 * writes a store at a time and its own commits are all there is to hear); stopped when `db` closes.
 * The channel is the store's schema's, as the commit's trigger names it (current_schema()).
 */
export function logTailOf(db: unknown, log: TailReads, listeners: CommitListeners, env: NodeJS.ProcessEnv = process.env): LogTail | undefined {
  if (!isTailConnection(db)) return undefined;
  const source: LogTailSource = {
    readAfter: (cursor, limit) => log.readEventsAfter(cursor, { limit }),
    lastCursor: () => log.lastCursor(),
    listen: (onChange) => {
      const row = db.pg.query('SELECT current_schema() AS schema').rows[0] as { schema?: unknown } | undefined;
      return db.pg.listen(logChannel(String(row?.schema)), onChange, onChange);
    },
    get closed() {
      return db.pg.closed;
    },
  };
  const tail = new LogTail(source, listeners, { pollMs: pollMsFrom(env) });
  db.onClose(() => tail.stop());
  return tail;
}

/** WEFT_PG_TAIL_POLL_MS when set (a whole number of ms above 0), else LOG_TAIL_POLL_MS. */
function pollMsFrom(env: NodeJS.ProcessEnv): number {
  const given = env['WEFT_PG_TAIL_POLL_MS'];
  if (given === undefined || given === '') return LOG_TAIL_POLL_MS;
  const value = Number(given);
  if (!Number.isSafeInteger(value) || value <= 0 || value > 2 ** 31 - 1) {
    throw new StoreError('bad-input', `WEFT_PG_TAIL_POLL_MS is "${given}"; set it to a whole number of milliseconds above 0 (e.g. 1500), or unset it for the default of ${LOG_TAIL_POLL_MS}`);
  }
  return value;
}

function isTailConnection(db: unknown): db is TailConnection {
  return typeof db === 'object' && db !== null && (db as { dialect?: unknown }).dialect === 'postgres' && typeof (db as { onClose?: unknown }).onClose === 'function';
}

export interface LogTailOptions {
  /** How often it reads without a notification (LOG_TAIL_POLL_MS unless given). */
  pollMs?: number;
  /** Hears a read that failed (it is retried); nothing by default. */
  onReadError?: (error: unknown) => void;
}

/**
 * Publishes every engine's commits to this process's listeners, once each, in cursor order.
 * @example
 * const tail = new LogTail(source, listeners);
 * tail.start(); // the first subscriber
 * tail.committed(ownEvents); // after each of this process's commits, instead of listeners.publish
 */
export class LogTail {
  /** The last cursor published: the next event to publish has the cursor after it. */
  private published = 0;
  private stopListening: (() => void) | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Listening, and `published` is known. */
  private begun = false;
  private reading = false;
  /** A catch-up was asked for while one was reading: it reads again before it ends. */
  private again = false;
  private soon = false;
  private readonly pollMs: number;

  constructor(
    private readonly source: LogTailSource,
    private readonly listeners: CommitListeners,
    private readonly o: LogTailOptions = {},
  ) {
    this.pollMs = o.pollMs ?? LOG_TAIL_POLL_MS;
  }

  /** Started and not stopped (it may be waiting for the connection to come back). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** The last cursor published (tests, and what a caller's catch-up may start from). */
  get cursor(): number {
    return this.published;
  }

  /**
   * Starts: from the newest cursor now (a subscriber hears what is committed from now on, as on
   * SQLite). The LISTEN comes first, so a commit between it and the cursor read is either below
   * the cursor or notified. Never throws: when the connection is down the poll starts it later.
   */
  start(): void {
    if (this.timer !== undefined || this.source.closed) return;
    this.timer = setInterval(() => this.poll(), this.pollMs);
    this.timer.unref();
    this.begin();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.begun = false;
    const stop = this.stopListening;
    this.stopListening = undefined;
    if (stop === undefined || this.source.closed) return;
    try {
      stop();
    } catch {
      // The connection failed as the LISTEN ended: there is nothing left to stop.
    }
  }

  /**
   * This process's commit, just made: published now, after any other engine's commits below it
   * (read first). When that read fails, or a catch-up is reading, they are left to the catch-up,
   * which reads them back from the log in order.
   */
  committed(events: readonly CommittedEvent[]): void {
    const first = events[0];
    if (first === undefined) return;
    if (!this.begun) {
      // Not tailing (no subscriber), or not yet begun (the connection was down): this commit is
      // where a subscriber's hearing starts.
      this.listeners.publish(events);
      if (this.running) {
        this.published = Math.max(this.published, events[events.length - 1]?.cursor ?? 0);
        this.begun = true;
      }
      return;
    }
    if (this.reading) {
      this.again = true;
      return;
    }
    if (first.cursor > this.published + 1 && !this.catchUp()) return;
    const fresh = events.filter((c) => c.cursor > this.published);
    const last = fresh[fresh.length - 1];
    if (last === undefined) return;
    this.published = last.cursor;
    this.listeners.publish(fresh);
  }

  /** Reads and publishes what was committed after the cursor until caught up; false when a read failed (it is retried later). */
  catchUp(): boolean {
    if (!this.begun) return false;
    if (this.source.closed) {
      this.stop();
      return false;
    }
    if (this.reading) {
      this.again = true;
      return true;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        for (;;) {
          const page = this.source.readAfter(this.published, PAGE).filter((c) => c.cursor > this.published);
          const last = page[page.length - 1];
          if (last === undefined) break;
          this.published = last.cursor;
          this.listeners.publish(page);
          if (page.length < PAGE) break;
        }
      } while (this.again && this.begun);
      return true;
    } catch (e) {
      this.o.onReadError?.(e);
      return false;
    } finally {
      this.reading = false;
    }
  }

  /** Listens and takes the newest cursor, unless done; false when the connection refused (the poll tries again). */
  private begin(): boolean {
    try {
      this.stopListening ??= this.source.listen(() => this.catchUpSoon());
      if (!this.begun) {
        this.published = this.source.lastCursor();
        this.begun = true;
      }
      return true;
    } catch (e) {
      this.o.onReadError?.(e);
      return false;
    }
  }

  private poll(): void {
    if (this.source.closed) this.stop();
    else if (this.begin()) this.catchUp();
  }

  /** A notification: read on the next turn, once however many came in this one. */
  private catchUpSoon(): void {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      this.catchUp();
    });
  }
}
