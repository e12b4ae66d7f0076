// `weft serve`: one long-lived engine that owns the store (its lease, kept fresh), continues the
// store's unfinished runs, and serves the API and the app on 127.0.0.1. The endpoint and the token
// go in a file beside the store (a PostgreSQL store's: in the workspace's .weft/, store-home.ts)
// that only the user can read (serve.json, mode 0600), so the CLI
// on the same store can hand its commands to this engine, as typed commands that carry content
// (POST /api/commands): the server never takes a path, a folder or a store from a request.
// The store, its lease, the engine and the endpoint file are the engine host's (engine/host/), as
// for every command that schedules runs; this file adds the HTTP server. stop() records running
// attempts as any engine stop does, gives the lease back and removes the endpoint file; a server
// that cannot start (a port in use) gives the store back before it says why.
import type { Socket } from 'node:net';
import { openEngineSession, type EngineSession, type SharedOptions } from '../host/engine-host.ts';
import { createServer } from './create-server.ts';
import { builtinTemplatesDir } from './templates-dir.ts';
import { newToken } from './security.ts';
import type { StreamClient, StreamClientStats } from './event-stream.ts';

export interface ServeOptions {
  workspace: string;
  /** The store: a file's path, or a PostgreSQL URL (store-locator.ts), as openEngineSession opens it. */
  storePath: string;
  port: number;
  appDir: string | undefined;
  version: string;
  /** A fixed token (tests); a fresh random one otherwise. */
  token?: string;
  env?: NodeJS.ProcessEnv;
  /** Called when the engine cannot go on (for example the disk is full). */
  onFatal?: (error: unknown) => void;
  /** Bytes a WebSocket client may have unsent before it is told to resync (tests make it small). */
  streamBufferLimit?: number;
  /** The workflow templates of `POST /api/workflows` (`from`); Weft's examples/ unless given. */
  templatesDir?: string;
  /** On a PostgreSQL store: whether this server's engine also works (claims runs) or only takes them in (docs/scale-out.md). */
  shared?: SharedOptions;
}

export interface Serving {
  url: string;
  port: number;
  token: string;
  endpointFile: string;
  /** What each open stream holds for its client (tests watch it stay bounded). */
  streamClients(): StreamClientStats[];
  stop(): Promise<void>;
}

export async function serve(o: ServeOptions): Promise<Serving> {
  // The server, like weft run, makes the store if there is none. It does not wait for another
  // live engine to give the store back: it says which one holds it.
  const session = await openEngineSession(o.storePath, `weft serve (pid ${process.pid})`, 'create', o.env ?? process.env, {
    leaseWaitMs: 0,
    lockedHint: 'stop the other engine (or the weft serve already running on this store) first',
    onFatal: (error) => o.onFatal?.(error),
    drain: false,
    ...(o.shared === undefined ? {} : { shared: o.shared }),
  });
  try {
    return await listen(o, session);
  } catch (error) {
    await session.close().catch(() => {}); // the failure to start is the one to tell
    throw error;
  }
}

async function listen(o: ServeOptions, session: EngineSession): Promise<Serving> {
  // On a shared PostgreSQL store the session claims what no live engine holds (shared-session.ts):
  // recovering every unfinished run would take other workers' runs.
  if (session.shared === undefined) session.engine.recover();
  const token = o.token ?? newToken();
  const service = session.service({ workspace: o.workspace, templatesDir: o.templatesDir ?? builtinTemplatesDir() });
  const streams = new Set<StreamClient>();
  const app = await createServer({
    streams,
    service,
    store: session.store,
    token,
    appDir: o.appDir,
    version: o.version,
    workspace: service.files.root,
    storePath: o.storePath,
    ...(o.streamBufferLimit === undefined ? {} : { streamBufferLimit: o.streamBufferLimit }),
  });
  // Every socket, so a stop never waits on a client: one holding a refused WebSocket upgrade open,
  // or a stream that stopped reading, would otherwise keep close() waiting for good.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  try {
    await app.listen({ host: '127.0.0.1', port: o.port });
  } catch (error) {
    await app.close(); // a port in use: nothing listens, and nothing started is left running
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : o.port;
  const url = `http://127.0.0.1:${port}`;
  const endpointFile = session.publishEndpoint({ url, port, token, workspace: service.files.root });
  let stopped = false;
  return {
    url,
    port,
    token,
    endpointFile,
    streamClients: () => [...streams].map((c) => c.stats()),
    async stop() {
      if (stopped) return;
      stopped = true;
      session.withdrawEndpoint();
      // Open streams would hold the close; their clients reconnect and resume from their cursor.
      for (const client of app.websocketServer.clients) client.terminate();
      const closed = app.close();
      for (const socket of sockets) socket.destroy();
      await closed;
      await session.close();
    },
  };
}
