// `WS /api/stream`: a client subscribes to some runs (or all) after a cursor, and gets every
// committed event after it, in commit order, as `{cursor, event}`; first the backlog, read from
// the store in pages, then live events as the store publishes them after each commit. Events
// published while the backlog is being sent wait in a queue and go out after it, skipping what
// the backlog already held, so there is no gap and no duplicate.
//
// A slow client never slows the engine: live events are only queued (the store's listener does no
// I/O) and written on the next turn. When the socket's buffer passes the limit, the client is told
// to resync from its last cursor and hears nothing more until it subscribes again.
import type { WebSocket } from 'ws';
import { StreamSubscribe, type StreamServerMessage } from '../../shared/api/stream-messages.ts';
import { badInput } from '../../shared/api/api-error.ts';
import type { CommittedEvent, Store } from '../store/store.ts';
import { lastCursor } from '../store/run-list.ts';

const PAGE = 500;
/** Bytes the socket may hold unsent before the client is told to resync. */
export const DEFAULT_BUFFER_LIMIT = 4 * 1024 * 1024;

export interface StreamOptions {
  bufferLimit?: number;
}

export function serveEventStream(socket: WebSocket, store: Store, options: StreamOptions = {}): void {
  const limit = options.bufferLimit ?? DEFAULT_BUFFER_LIMIT;
  let runs: ReadonlySet<string> | 'all' = 'all';
  let lastSent = 0;
  /** 'idle' before a subscription, 'catching-up' while the backlog goes out, 'live', or 'stalled' after a resync. */
  let phase: 'idle' | 'catching-up' | 'live' | 'stalled' = 'idle';
  let queue: CommittedEvent[] = [];
  let flushing = false;
  let generation = 0;

  // Events go out as the store holds them; RunEventRecord (the union in the schema) is their shape.
  const send = (message: StreamServerMessage | CommittedEvent | { events: readonly CommittedEvent[] }): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  let batch = false;
  /** Sends events as one batch frame, or one frame each; returns false when the client fell behind. */
  const deliver = (events: readonly CommittedEvent[]): boolean => {
    if (events.length === 0) return true;
    if (overLimit()) return false;
    if (batch) send({ events });
    else for (const c of events) send({ cursor: c.cursor, event: c.event });
    const last = events[events.length - 1];
    if (last !== undefined) lastSent = last.cursor;
    return true;
  };
  const wanted = (c: CommittedEvent): boolean => runs === 'all' || runs.has(c.event.runId);
  const overLimit = (): boolean => socket.bufferedAmount > limit;

  const stall = (): void => {
    phase = 'stalled';
    queue = [];
    send({ resync: { after: lastSent, reason: `this client fell behind by more than ${limit} bytes; subscribe again with "after": ${lastSent}` } });
  };

  const flush = (): void => {
    flushing = false;
    if (phase !== 'live') return;
    const pending = queue.filter((c) => c.cursor > lastSent && wanted(c));
    queue = [];
    if (!deliver(pending)) stall();
  };

  const unsubscribe = store.subscribe((c) => {
    if (phase !== 'live' && phase !== 'catching-up') return;
    queue.push(c);
    if (phase === 'live' && !flushing) {
      flushing = true;
      setImmediate(flush);
    }
  });

  const catchUp = async (mine: number): Promise<void> => {
    for (;;) {
      if (mine !== generation || socket.readyState !== socket.OPEN) return;
      const page = store.readEventsAfter(lastSent, { runs: runs === 'all' ? 'all' : [...runs], limit: PAGE });
      if (batch) deliver(page);
      else
        for (const c of page) {
          send({ cursor: c.cursor, event: c.event });
          lastSent = c.cursor;
        }
      if (page.length < PAGE) break;
      // Let the socket drain and the engine work between pages.
      while (overLimit() && socket.readyState === socket.OPEN && mine === generation) await new Promise((r) => setTimeout(r, 20));
    }
    if (mine !== generation) return;
    phase = 'live';
    send({ subscribed: { cursor: lastSent } });
    flush();
  };

  socket.on('message', (data: Buffer) => {
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
    runs = message.data.subscribe.runs === 'all' ? 'all' : new Set(message.data.subscribe.runs);
    batch = message.data.batch === true;
    // Without `after`, only what is committed from now on.
    lastSent = message.data.after ?? lastCursor(store.db);
    queue = [];
    phase = 'catching-up';
    generation += 1;
    void catchUp(generation);
  });
  socket.on('close', () => {
    generation += 1;
    phase = 'idle';
    queue = [];
    unsubscribe();
  });
}
