// The live event stream: one WebSocket to `/api/stream`, authenticated by the subprotocol
// `weft.bearer.TOKEN` (browsers cannot set headers on a WebSocket). It subscribes to every run and
// resumes after the last cursor it saw, so a reconnect gets no gap and no duplicate. A lost
// connection is retried with backoff (0.25 s doubling to 5 s); the server may also say `resync`
// (this client fell too far behind), after which the app refetches what it shows.
import type { StreamMessage } from './api-types.ts';

export type ConnectionState = 'connecting' | 'open' | 'lost';

export interface StreamHandlers {
  onEvents(messages: StreamMessage[]): void;
  onResync(): void;
  onState(state: ConnectionState, cursor: number): void;
}

const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

export class EventStream {
  private socket: WebSocket | null = null;
  private cursor: number;
  private delay = MIN_DELAY_MS;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private batch: StreamMessage[] = [];
  private flushScheduled = false;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly handlers: StreamHandlers,
    startCursor = 0,
  ) {
    this.cursor = startCursor;
  }

  start(): void {
    this.connect();
  }

  stop(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.socket?.close();
  }

  private connect(): void {
    this.handlers.onState('connecting', this.cursor);
    const socket = new WebSocket(this.url, ['weft', `weft.bearer.${this.token}`]);
    this.socket = socket;
    socket.onopen = () => {
      this.delay = MIN_DELAY_MS;
      socket.send(JSON.stringify({ subscribe: { runs: 'all' }, after: this.cursor }));
      this.handlers.onState('open', this.cursor);
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      this.handlers.onState('lost', this.cursor);
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    };
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    if (parsed === null || typeof parsed !== 'object') return;
    if ('resync' in parsed) {
      if ('cursor' in parsed && typeof parsed.cursor === 'number') this.cursor = parsed.cursor;
      this.handlers.onResync();
      return;
    }
    if (!('cursor' in parsed) || typeof parsed.cursor !== 'number' || parsed.cursor <= this.cursor) return;
    this.cursor = parsed.cursor;
    this.batch.push(parsed as StreamMessage);
    // Many events arrive in one burst when the engine runs fast; hand them on once per frame.
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
