// A synchronous connection to PostgreSQL, so that the store, synchronous by design as it is on
// better-sqlite3, keeps its shape on PostgreSQL (issue 25). One node-postgres Client runs on a
// thread of its own (pg-sync-entry.ts); the engine's thread sends it a batch of statements and
// blocks in Atomics.wait until the answer is there, then takes it with receiveMessageOnPort (the
// pattern of synckit). A batch is one round trip to the thread, however many statements it holds.
// The engine's thread waits during each round trip as it waits for SQLite's fsync today.
// Failures are clear and never hang: a round trip unanswered within the timeout (30 s, or
// WEFT_PG_TIMEOUT_MS) ends the thread and makes this connection unusable; a server that dies
// fails the call, and the next call connects again; a thread that died fails the call. No message
// carries the URL's password. The thread does not keep the process alive (close() ends it).
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { StoreError } from '../store-error.ts';
import { describePgUrl, pgFailure, scrubPgUrl } from './pg-connection.ts';
import { EXITED, WAITING, type PgAnswer, type PgStatement, type PgSyncData, type PgSyncEvent, type PgSyncFailure, type PgSyncReply, type PgSyncRequest } from './pg-sync-protocol.ts';

export type { PgAnswer, PgStatement } from './pg-sync-protocol.ts';

/** How long a round trip may take unless told (WEFT_PG_TIMEOUT_MS, or the option). */
export const DEFAULT_PG_TIMEOUT_MS = 30_000;
/** How long making the connection may take, on top of the thread's start (which loads pg). */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The thread's start: under tsx it compiles its modules first, slow on a loaded machine. */
const BOOT_ALLOWANCE_MS = 30_000;
/** How long close() waits for the connections to end before it ends the thread anyway. */
const CLOSE_WAIT_MS = 2_000;

// Under tsx (source, tests) the thread starts through the bootstrap that registers tsx; in the
// bundled CLI (dist/cli/, flat) as the built pg-sync-entry.js beside the bundle (build/bundle-cli.mjs).
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The server refused a statement of a batch: its SQLSTATE, what it said, and which statement. */
export class PgSyncError extends Error {
  constructor(
    message: string,
    /** The SQLSTATE, e.g. `23505` (unique_violation); see PostgreSQL's Appendix A. */
    readonly code: string,
    /** The statement's place in its batch, from 0. */
    readonly index: number,
    /** The statement's text as sent. */
    readonly text: string,
    readonly detail?: string,
    readonly constraint?: string,
  ) {
    super(message);
    this.name = 'PgSyncError';
  }
}

export interface PgSyncOptions {
  /** The schema the tables are in (search_path); the user's default unless given. */
  schema?: string;
  /** A round trip unanswered after this ends the connection (default 30 s; WEFT_PG_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Making the connection may take this (default 10 s). */
  connectTimeoutMs?: number;
}

/** WEFT_PG_TIMEOUT_MS when set (a positive whole number of ms), else the default. */
function timeoutFromEnv(env: NodeJS.ProcessEnv): number {
  const given = env['WEFT_PG_TIMEOUT_MS'];
  if (given === undefined || given === '') return DEFAULT_PG_TIMEOUT_MS;
  const value = Number(given);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new StoreError('bad-input', `WEFT_PG_TIMEOUT_MS is "${given}"; set it to a whole number of milliseconds above 0 (e.g. 30000), or unset it for the default of ${DEFAULT_PG_TIMEOUT_MS}`);
  }
  return value;
}

interface Listener {
  onNotify: (payload: string) => void;
  onGap: (() => void) | undefined;
}

/**
 * A synchronous PostgreSQL connection.
 * @example
 * const pg = PgSync.open('postgres://weft@%2Ftmp%2Fpg/weft');
 * pg.query('SELECT count(*) AS n FROM events').rows; // [{ n: 3 }]
 * pg.batch([{ text: 'BEGIN', values: [] }, { text: 'INSERT INTO t VALUES ($1)', values: [1] }, { text: 'COMMIT', values: [] }]);
 */
export class PgSync {
  /** Round trips to the thread so far (tests and stats: a pipelined transaction is one). */
  roundTrips = 0;
  /** Which connection answered last: 1 for the first, one more after each reconnect. */
  session = 0;
  private readonly state = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly timeoutMs: number;
  /** Why this connection can no longer be used (closed, timed out, thread gone). */
  private unusable: string | undefined;

  /** Starts the thread and connects now; a StoreError naming the place (never the password) when it cannot. */
  static open(url: string, o: PgSyncOptions = {}): PgSync {
    return new PgSync(url, o);
  }

  private constructor(
    private readonly url: string,
    o: PgSyncOptions,
  ) {
    this.timeoutMs = o.timeoutMs ?? timeoutFromEnv(process.env);
    const connectTimeoutMs = o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const channel = new MessageChannel();
    this.port = channel.port1;
    const entry = new URL(`./pg-sync-entry.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);
    const data: PgSyncData = { url, connectTimeoutMs, state: this.state.buffer as SharedArrayBuffer, port: channel.port2, ...(o.schema === undefined ? {} : { schema: o.schema }) };
    if (FROM_SOURCE) data.entry = entry.href;
    const script = FROM_SOURCE ? new URL('../../service/store-worker-boot.mjs', import.meta.url) : entry;
    this.worker = new Worker(fileURLToPath(script), { workerData: data, transferList: [channel.port2] });
    this.worker.on('message', (event: PgSyncEvent) => this.heard(event));
    this.worker.on('error', (e: unknown) => this.lostThread(`the PostgreSQL thread failed: ${scrubPgUrl(e instanceof Error ? e.message : String(e), url)}`));
    this.worker.on('exit', (code) => this.lostThread(`the PostgreSQL thread stopped (exit code ${code})`));
    // An idle thread does not keep the process alive. After the listeners: adding a 'message'
    // listener refs the Worker again.
    this.worker.unref();
    const reply = this.call({ kind: 'connect' }, connectTimeoutMs + BOOT_ALLOWANCE_MS, 'connecting');
    if (!reply.ok) {
      this.end('it could not connect');
      throw this.failed(reply.failure, [], 'connect to');
    }
  }

  /** Closed, or unusable since a round trip timed out or the thread stopped: every call is refused. */
  get closed(): boolean {
    return this.unusable !== undefined;
  }

  /** One statement; its rows as objects unless `rowMode` is 'array'. */
  query(text: string, values: readonly unknown[] = [], rowMode: 'array' | 'object' = 'object'): PgAnswer {
    return this.batch([{ text, values, rowMode }])[0] as PgAnswer;
  }

  /**
   * The statements in order, in one round trip to the thread; the first that fails stops the batch
   * and throws: a PgSyncError when the server refused it, a StoreError when the connection failed
   * (the next call connects again: a transaction open on the lost connection is gone).
   */
  batch(statements: readonly PgStatement[]): PgAnswer[] {
    const reply = this.call({ kind: 'batch', statements }, this.timeoutMs, statements.length === 1 ? `running ${brief(statements[0]?.text ?? '')}` : `running a batch of ${statements.length} statements`);
    this.session = reply.session;
    if (!reply.ok) throw this.failed(reply.failure, statements, reply.failure.index < 0 ? 'connect to' : 'run a statement on');
    reply.answers.forEach((answer, k) => toBuffers(answer, reply.bytea[k]));
    return reply.answers;
  }

  /**
   * Calls `onNotify` with each notification's payload on `channel`, on this thread's event loop,
   * from when this returns; the returned function stops it. The LISTEN has a connection of its
   * own; when it is lost it is made again and listened to again, and `onGap` is told (a
   * notification sent meanwhile was missed: read what changed).
   */
  listen(channel: string, onNotify: (payload: string) => void, onGap?: () => void): () => void {
    let set = this.listeners.get(channel);
    if (set === undefined) {
      const reply = this.call({ kind: 'listen', channel }, this.timeoutMs, `listening on ${channel}`);
      if (!reply.ok) throw this.failed(reply.failure, [], 'listen on');
      this.listeners.set(channel, (set = new Set()));
    }
    const listener: Listener = { onNotify, onGap };
    set.add(listener);
    return () => {
      if (!set.delete(listener) || set.size > 0 || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      if (this.unusable !== undefined) return;
      const reply = this.call({ kind: 'unlisten', channel }, this.timeoutMs, `ending the listen on ${channel}`);
      if (!reply.ok) throw this.failed(reply.failure, [], 'stop listening on');
    };
  }

  /** Ends the connections and the thread; later calls are refused. */
  close(): void {
    if (this.unusable === undefined) {
      try {
        this.call({ kind: 'close' }, CLOSE_WAIT_MS, 'closing');
      } catch {
        // Ended below regardless.
      }
    }
    this.end('it was closed');
  }

  private end(why: string): void {
    this.unusable ??= why;
    this.listeners.clear();
    void this.worker.terminate();
  }

  /** One round trip: post, block until the thread answers (or ends, or the time is up), take the answer. */
  private call(request: PgSyncRequest, timeoutMs: number, doing: string): PgSyncReply {
    if (this.unusable !== undefined) throw new StoreError('io', `cannot use the connection to ${describePgUrl(this.url)}: ${this.unusable}`);
    this.roundTrips++;
    Atomics.store(this.state, 0, WAITING);
    this.port.postMessage(request);
    const deadline = performance.now() + timeoutMs;
    while (Atomics.load(this.state, 0) === WAITING) {
      const left = deadline - performance.now();
      if (left <= 0) {
        this.end(`PostgreSQL did not answer within ${timeoutMs} ms while ${doing}, so the connection was closed`);
        throw new StoreError(
          'io',
          `${describePgUrl(this.url)} did not answer within ${timeoutMs} ms while ${doing}; the connection is closed (the statement may still run on the server until it notices). Allow longer with WEFT_PG_TIMEOUT_MS (milliseconds) if such a statement is expected to take that long`,
        );
      }
      Atomics.wait(this.state, 0, WAITING, left);
    }
    const reply = receiveMessageOnPort(this.port)?.message as PgSyncReply | undefined;
    if (reply !== undefined) return reply;
    const why = Atomics.load(this.state, 0) === EXITED ? 'the PostgreSQL thread stopped' : 'the PostgreSQL thread answered nothing';
    this.end(why);
    throw new StoreError('io', `cannot use the connection to ${describePgUrl(this.url)}: ${why} while ${doing}`);
  }

  private failed(f: PgSyncFailure, statements: readonly PgStatement[], doing: string): Error {
    const message = scrubPgUrl(f.message, this.url);
    const at = f.index < 0 || statements.length === 0 ? '' : ` (statement ${f.index + 1} of ${statements.length}: ${statements[f.index]?.text ?? ''})`;
    if (f.kind === 'sql') {
      return new PgSyncError(`PostgreSQL refused a statement${at}: ${message} [${f.code ?? ''}]${f.detail === undefined ? '' : ` (${f.detail})`}`, f.code ?? '', f.index, statements[f.index]?.text ?? '', f.detail, f.constraint);
    }
    if (f.kind === 'other') return new StoreError('io', `cannot run a statement on ${describePgUrl(this.url)}${at}: ${message}`);
    const said = Object.assign(new Error(`${message}${at}`), f.code === undefined ? {} : { code: f.code });
    return pgFailure(said, this.url, doing);
  }

  private heard(event: PgSyncEvent): void {
    if (event.kind === 'notify') {
      for (const l of this.listeners.get(event.channel) ?? []) l.onNotify(event.payload);
      return;
    }
    for (const channel of event.channels) for (const l of this.listeners.get(channel) ?? []) l.onGap?.();
  }

  private lostThread(why: string): void {
    this.unusable ??= scrubPgUrl(why, this.url);
  }
}

/** A statement's start, for messages about it. */
function brief(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** bytea columns arrive as Uint8Array (a Buffer does not survive the thread boundary): Buffers again, as better-sqlite3 gives. */
function toBuffers(answer: PgAnswer, columns: number[] | undefined): void {
  if (columns === undefined) return;
  for (const row of answer.rows) {
    for (const k of columns) {
      const key = Array.isArray(row) ? k : (answer.fields[k] as string);
      const cell = (row as Record<string | number, unknown>)[key];
      if (cell instanceof Uint8Array && !Buffer.isBuffer(cell)) (row as Record<string | number, unknown>)[key] = Buffer.from(cell.buffer, cell.byteOffset, cell.byteLength);
    }
  }
}
