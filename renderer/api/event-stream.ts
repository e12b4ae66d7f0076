// The live event stream: one WebSocket to `/api/stream`, authenticated by the subprotocol
// `weft.bearer.TOKEN` (browsers cannot set headers on a WebSocket). It subscribes to the runs the
// app shows (`watch`), never to every run: a subscription to all costs the engine a fifth of its
// throughput under load. A new set is a new subscribe from the last cursor seen (the server
// replaces the old one; events of a newly shown run the app read already come again and are
// dropped by seq); with no run shown it keeps the last subscription. The first subscription asks
// for what is committed from then on (the app fetches the current state once it is confirmed);
// every later one resumes after the last cursor seen, so a reconnect gets no gap and no
// duplicate. Events come in batch frames, one per engine turn. A lost connection is retried with
// backoff (0.25 s doubling to 5 s); a `resync` (this client fell behind) resubscribes from its
// cursor and the app refetches what it shows.
import type { StreamMessage } from './api-types.ts';
import { StreamServerMessage } from '../../shared/api/stream-messages.ts';

export type ConnectionState = 'connecting' | 'open' | 'lost';

export interface StreamHandlers {
  onEvents(messages: StreamMessage[]): void;
  /** The subscription is live; `first` on the first one (and after a resync): fetch what is shown. */
  onSubscribed(first: boolean): void;
  onState(state: ConnectionState, cursor: number): void;
}

const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

export class EventStream {
  private socket: WebSocket | null = null;
  private cursor: number | null;
  private refetch = true;
  private delay = MIN_DELAY_MS;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private batch: StreamMessage[] = [];
  private flushScheduled = false;
  private runs: readonly string[] = [];

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly handlers: StreamHandlers,
    startCursor: number | null = null,
  ) {
    this.cursor = startCursor;
  }

  start(): void {
    this.connect();
  }

  /** Subscribes to `runs` (the runs the app shows) instead of the runs before. */
  watch(runs: readonly string[]): void {
    const same = runs.length === this.runs.length && runs.every((r, i) => r === this.runs[i]);
    if (same || runs.length === 0) return;
    this.runs = [...runs];
    if (this.socket !== null && this.socket.readyState === WebSocket.OPEN) this.subscribe(this.socket);
  }

  stop(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.socket?.close();
  }

  private connect(): void {
    this.handlers.onState('connecting', this.cursor ?? 0);
    const socket = new WebSocket(this.url, ['weft', `weft.bearer.${this.token}`]);
    this.socket = socket;
    socket.onopen = () => {
      this.delay = MIN_DELAY_MS;
      this.subscribe(socket);
      this.handlers.onState('open', this.cursor ?? 0);
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      this.handlers.onState('lost', this.cursor ?? 0);
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    };
  }

  private subscribe(socket: WebSocket): void {
    if (this.runs.length === 0) return;
    socket.send(JSON.stringify({ subscribe: { runs: this.runs }, batch: true, ...(this.cursor === null ? {} : { after: this.cursor }) }));
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const message = StreamServerMessage.safeParse(parsed);
    if (!message.success) return;
    const m = message.data;
    if ('subscribed' in m) {
      if (this.cursor === null) this.cursor = m.subscribed.cursor;
      const first = this.refetch;
      this.refetch = false;
      this.handlers.onSubscribed(first);
      return;
    }
    if ('resync' in m) {
      this.cursor = m.resync.after;
      this.refetch = true;
      if (this.socket !== null) this.subscribe(this.socket);
      return;
    }
    if ('error' in m) return;
    const events = 'events' in m ? m.events : [m];
    const fresh = events.filter((e) => this.cursor === null || e.cursor > this.cursor);
    const last = fresh[fresh.length - 1];
    if (last === undefined) return;
    this.cursor = last.cursor;
    this.batch.push(...fresh);
    // Hand events on once per frame, however many frames arrive in it.
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      requestAnimationFrame(() => {
        this.flushScheduled = false;
        const batch = this.batch;
        this.batch = [];
        this.handlers.onEvents(batch);
      });
    }
  }
}
