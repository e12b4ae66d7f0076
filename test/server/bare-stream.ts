// A bare WebSocket server that serves the event stream (engine/server/event-stream.ts) over a
// test harness's store, with no HTTP around it: what the stream tests that probe one stream's
// insides share. Each connection's StreamClient is kept so a test can read its stats; `close`
// closes the clients' sockets, the server, the harness and its folder.
import { rmSync } from 'node:fs';
import WebSocket, { WebSocketServer } from 'ws';
import { serveEventStream, type StreamClient, type StreamOptions } from '../../engine/server/event-stream.ts';
import { harness, type Harness } from '../engine/harness.ts';

export interface BareStream {
  h: Harness;
  /** The server side of each connection, in the order they came. */
  clients: StreamClient[];
  /**
   * Opens a client, subscribes it to `runs` (live from now on, batched) and resolves once the
   * server says it is subscribed; `onFrame` hears every later frame's text.
   */
  subscribe(runs: 'all' | string[], onFrame?: (text: string) => void): Promise<WebSocket>;
  close(): Promise<void>;
}

/** Starts a bare stream server on 127.0.0.1 over a fresh harness, with the stream's `options`. */
export async function bareStream(options?: StreamOptions): Promise<BareStream> {
  const h = harness();
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const clients: StreamClient[] = [];
  server.on('connection', (socket) => clients.push(serveEventStream(socket, h.store, options)));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const sockets: WebSocket[] = [];
  return {
    h,
    clients,
    async subscribe(runs, onFrame) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}`);
      sockets.push(ws);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const subscribed = new Promise<void>((resolve) =>
        ws.on('message', (d: Buffer) => {
          const text = d.toString();
          if ((JSON.parse(text) as { subscribed?: unknown }).subscribed !== undefined) resolve();
          else onFrame?.(text);
        }),
      );
      ws.send(JSON.stringify({ subscribe: { runs }, batch: true }));
      await subscribed;
      return ws;
    },
    async close() {
      for (const s of sockets.splice(0)) s.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      h.close();
      rmSync(h.dir, { recursive: true, force: true });
    },
  };
}
