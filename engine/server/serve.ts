// `weft serve`: one long-lived engine that owns the store (its lease, kept fresh), continues the
// store's unfinished runs, and serves the API and the app on 127.0.0.1. The endpoint and the token
// go in a file beside the store that only the user can read (serve.json, mode 0600), so the CLI
// on the same store can hand its commands to this engine, as typed commands that carry content
// (POST /api/commands): the server never takes a path, a folder or a store from a request.
// stop() records running attempts as any engine stop does, gives the lease back and removes the
// endpoint file.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userInfo } from 'node:os';
import type { Socket } from 'node:net';
import { systemClock, systemRandom } from '../time/clock.ts';
import { Engine } from '../runtime/engine.ts';
import { defaultExecutors } from '../executors/default-executors.ts';
import { Lease } from '../store/lease.ts';
import { openDatabase } from '../store/open-database.ts';
import { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';
import { storeFailure } from '../store/store-failure.ts';
import { EngineService } from '../service/engine-service.ts';
import { createServer } from './create-server.ts';
import { builtinTemplatesDir } from './templates-dir.ts';
import { newToken } from './security.ts';
import type { StreamClient, StreamClientStats } from './event-stream.ts';
import { trustCheck } from '../service/workspace-trust.ts';

export interface ServeOptions {
  workspace: string;
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

const HEARTBEAT_MS = 5_000;

export function endpointFileOf(storePath: string): string {
  return join(dirname(storePath), 'serve.json');
}

export async function serve(o: ServeOptions): Promise<Serving> {
  // The server, like weft run, makes the store if there is none.
  const db = openDatabase(o.storePath, { mode: 'create' });
  const store = new Store(db);
  const lease = new Lease(db, `weft serve (pid ${process.pid})`, systemClock.now);
  try {
    lease.acquire();
  } catch (error) {
    db.close();
    if (error instanceof StoreError && error.code === 'locked') {
      throw new StoreError('locked', `${error.message}; stop the other engine (or the weft serve already running on this store) first`);
    }
    throw storeFailure(o.storePath, error, 'open') ?? error;
  }
  const engine = new Engine({
    store,
    clock: systemClock,
    random: systemRandom,
    executors: defaultExecutors(),
    onFatal: (error) => o.onFatal?.(error),
    workspaceTrust: trustCheck(o.env ?? process.env),
  });
  const heartbeat = setInterval(() => {
    try {
      lease.heartbeat();
    } catch (error) {
      // The store refused the write (a full disk, a damaged file): stop the engine now, as any
      // store failure does (onFatal), rather than throw out of a timer and end the process.
      engine.fail(error);
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  engine.recover();
  const token = o.token ?? newToken();
  const env = o.env ?? process.env;
  const defaultActor = env['WEFT_USER'] ?? env['USER'] ?? userInfo().username;
  const service = new EngineService(store, engine, o.workspace, env, { actor: defaultActor, templatesDir: o.templatesDir ?? builtinTemplatesDir() });
  const streams = new Set<StreamClient>();
  const app = await createServer({
    streams,
    service,
    store,
    token,
    appDir: o.appDir,
    version: o.version,
    workspace: service.files.root,
    storePath: o.storePath,
    defaultActor,
    ...(o.streamBufferLimit === undefined ? {} : { streamBufferLimit: o.streamBufferLimit }),
  });
  // Every socket, so a stop never waits on a client: one holding a refused WebSocket upgrade open,
  // or a stream that stopped reading, would otherwise keep close() waiting for good.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await app.listen({ host: '127.0.0.1', port: o.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : o.port;
  const url = `http://127.0.0.1:${port}`;
  const endpointFile = endpointFileOf(o.storePath);
  writeFileSync(endpointFile, `${JSON.stringify({ url, port, token, pid: process.pid, workspace: service.files.root })}\n`, { mode: 0o600 });
  chmodSync(endpointFile, 0o600);
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
      rmSync(endpointFile, { force: true });
      // Open streams would hold the close; their clients reconnect and resume from their cursor.
      for (const client of app.websocketServer.clients) client.terminate();
      const closed = app.close();
      for (const socket of sockets) socket.destroy();
      await closed;
      clearInterval(heartbeat);
      engine.close();
      engine.flush();
      lease.release();
      db.close();
    },
  };
}
