// `WS /api/stream`: a client subscribes to some runs (or all) after a cursor, and gets every
// committed event after it, in commit order; first the backlog, read from the store in pages,
// then live events as the store publishes them after each commit. Large values come as stubs and
// events in frames of bounded size (stream-frames.ts).
//
// What one client may cost is bounded in bytes, never in events:
// - Catch-up reads the store a page at a time (500 events, or about 1 MiB of stored data) and
//   sends it while the socket holds at most half the buffer limit; past that it waits for the
//   socket to drain (every frame it was handed written) before it sends more, however long that
//   takes. Live events are not queued meanwhile: the next page reads them from the store.
//   Once a page comes back empty (in the same turn) the client is live, so there is no gap and
//   no duplicate.
// - Live events of the subscribed runs are only queued (the store's listener does no I/O; the
//   others it drops at once) and written on the next turn.
//   When the socket holds more than the limit, the client is told to resync from its last cursor
//   and hears nothing more until it subscribes again.
// A fault while serving one client (a damaged row of the store, a bug) ends that client's stream
// with an `internal` error and close code 1011; it never reaches the process.
import type { WebSocket } from 'ws';
import { StreamSubscribe, STREAM_ELIDE, type StreamServerMessage } from '../../shared/api/stream-messages.ts';
import { badInput } from '../../shared/api/api-error.ts';
import type { CommittedEvent, Store } from '../store/store.ts';
import { framesOf, type Frame } from './stream-frames.ts';
import { EventTexts } from './event-texts.ts';

/** Events a catch-up page holds at most. */
const PAGE_EVENTS = 500;
/** Stored data (characters) a catch-up page holds at most, the event that passes it included. */
export const CATCH_UP_PAGE_CHARS = 1024 * 1024;
/** Bytes the socket may hold unsent before the client is told to resync. */
export const DEFAULT_BUFFER_LIMIT = 4 * 1024 * 1024;

export interface StreamOptions {
  bufferLimit?: number;
  /** The server's open streams: this one is in it while its socket is open. */
  clients?: Set<StreamClient>;
  /** The live events' texts, shared by the server's streams so each event is encoded once (default: this stream's own). */
  texts?: EventTexts;
}

/** What one stream holds for its client, in bytes. */
export interface StreamClientStats {
  /** Bytes the socket holds unsent (`bufferedAmount`: ws and Node's own buffer). */
  bufferedBytes: number;
  /** Bytes the stream holds beyond the socket: catch-up frames not yet sent, live events queued for the next turn. */
  heldBytes: number;
  /** The catch-up waits for the socket to drain. */
  waiting: boolean;
}

export interface StreamClient {
  stats(): StreamClientStats;
}

type Phase = 'idle' | 'catching-up' | 'live' | 'stalled' | 'failed';

export function serveEventStream(socket: WebSocket, store: Store, options: StreamOptions = {}): StreamClient {
  const limit = options.bufferLimit ?? DEFAULT_BUFFER_LIMIT;
  /** Catch-up sends while the socket holds at most this; then it waits for the socket to drain. */
  const drainMark = Math.floor(limit / 2);
  const texts = options.texts ?? new EventTexts();
  let runs: ReadonlySet<string> | 'all' = 'all';
  let batch = false;
  let elide = STREAM_ELIDE;
  let lastSent = 0;
  let phase: Phase = 'idle';
  let queue: CommittedEvent[] = [];
  let flushing = false;
  let generation = 0;
  /** Frames of the catch-up page not sent yet, from `next` on. */
  let pending: Frame[] = [];
  let next = 0;
  let pendingBytes = 0;
  /** Frames handed to the socket whose write has not completed; at 0 the socket's buffer is empty. */
  let inFlight = 0;
  /** Waits for the socket to drain: woken when inFlight reaches 0, the socket closes, or a new subscription comes. */
  let waiter: (() => void) | null = null;

  const open = (): boolean => socket.readyState === socket.OPEN;
  const wake = (): void => {
    const w = waiter;
    waiter = null;
    w?.();
  };
  /** Every frame goes out through here, so the stream knows when the socket has written them all. */
  const sendText = (text: string): void => {
    inFlight += 1;
    socket.send(text, () => {
      inFlight -= 1;
      if (inFlight === 0) wake();
    });
  };
  const send = (message: StreamServerMessage): void => {
    if (open()) sendText(JSON.stringify(message));
  };
  const wanted = (c: CommittedEvent): boolean => runs === 'all' || runs.has(c.event.runId);
  const dropPending = (): void => {
    pending = [];
    next = 0;
    pendingBytes = 0;
  };
  const interrupt = (): void => {
    generation += 1;
    queue = [];
    dropPending();
    wake();
  };

  const fail = (error: unknown): void => {
    if (phase === 'failed') return;
    interrupt();
    phase = 'failed';
    const why = error instanceof Error ? error.message : String(error);
    send({ error: { code: 'internal', message: `the stream stopped after cursor ${lastSent}: ${why}; nothing was changed and the server goes on (connect again to retry)` } });
    if (open()) socket.close(1011, 'internal error');
  };

  const stall = (): void => {
    phase = 'stalled';
    queue = [];
    send({ resync: { after: lastSent, reason: `this client fell behind by more than ${limit} bytes; subscribe again with "after": ${lastSent}` } });
  };

  const flush = (): void => {
    flushing = false;
    if (phase !== 'live') return;
    try {
      const due = queue.filter((c) => c.cursor > lastSent && wanted(c));
      queue = [];
      for (const frame of framesOf(due, { batch, elide, encode: (c) => texts.of(c, elide) })) {
        if (socket.bufferedAmount > limit) {
          stall();
          return;
        }
        if (!open()) return;
        sendText(frame.text);
        lastSent = frame.lastCursor;
      }
    } catch (error) {
      fail(error);
    }
  };

  const unsubscribe = store.subscribe((c) => {
    // Events of runs the client did not ask for are dropped here, not queued: a run page on one
    // run costs nothing (no queue, no turn) for the commits of every other run.
    if (phase !== 'live' || !wanted(c)) return;
    queue.push(c);
    if (!flushing) {
      flushing = true;
      setImmediate(flush);
    }
  });

  /** Resolves once every frame sent is written (at once when none is in flight). */
  const drained = (): Promise<void> =>
    inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          waiter = resolve;
        });

  const catchUp = async (mine: number): Promise<void> => {
    const current = (): boolean => mine === generation && open();
    for (;;) {
      if (!current()) return;
      const page = store.readEventsAfter(lastSent, { runs: runs === 'all' ? 'all' : [...runs], limit: PAGE_EVENTS, maxChars: CATCH_UP_PAGE_CHARS });
      // The end of the log, read in this turn: from here on the store's listener has every event.
      if (page.length === 0) break;
      pending = framesOf(page, { batch, elide });
      next = 0;
      pendingBytes = pending.reduce((n, f) => n + f.bytes, 0);
      while (next < pending.length) {
        if (socket.bufferedAmount > drainMark) await drained();
        if (!current()) return;
        const frame = pending[next];
        if (frame === undefined) break;
        next += 1;
        pendingBytes -= frame.bytes;
        sendText(frame.text);
        lastSent = frame.lastCursor;
      }
      dropPending();
    }
    phase = 'live';
    send({ subscribed: { cursor: lastSent } });
  };

  socket.on('message', (data: Buffer) => {
    if (phase === 'failed') return;
    try {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString('utf8'));
      } catch {
        send({ error: { code: 'bad-input', message: 'a stream message must be JSON such as {"subscribe": {"runs": "all"}, "after": 0}' } });
        return;
      }
      const message = StreamSubscribe.safeParse(parsed);
      if (!message.success) {
        send(badInput(message.error, 'the subscription'));
        return;
      }
      interrupt();
      runs = message.data.subscribe.runs === 'all' ? 'all' : new Set(message.data.subscribe.runs);
      batch = message.data.batch === true;
      elide = message.data.elide ?? STREAM_ELIDE;
      // Without `after`, only what is committed from now on.
      lastSent = message.data.after ?? store.lastCursor();
      phase = 'catching-up';
      catchUp(generation).catch(fail);
    } catch (error) {
      fail(error);
    }
  });

  const client: StreamClient = {
    stats: () => ({ bufferedBytes: socket.bufferedAmount, heldBytes: pendingBytes + queue.reduce((n, c) => n + (c.dataJson?.length ?? 0), 0), waiting: waiter !== null }),
  };
  options.clients?.add(client);
  socket.on('close', () => {
    interrupt();
    phase = 'idle';
    unsubscribe();
    options.clients?.delete(client);
  });
  return client;
}
