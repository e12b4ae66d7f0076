// Issue 19, item 10: what one stream client may cost the server. Two clients that subscribe from
// the start and never read used to push the server past gigabytes: catch-up sent whole pages
// whatever the socket held, and queued every live event meanwhile. Here each client's bytes (what
// its socket holds unsent, and what the stream holds for it) are read from the server itself
// (`Serving.streamClients()`), and stay under the buffer limit however far behind it is; once the
// clients read again they get everything, in order, once. And a fault while serving one client
// (a damaged row of the store) ends that client's stream with an error, never the process.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { CATCH_UP_PAGE_CHARS, DEFAULT_BUFFER_LIMIT } from '../../engine/server/event-stream.ts';
import { MAX_FRAME_BYTES } from '../../engine/server/stream-frames.ts';
import { StreamServerMessage } from '../../shared/api/stream-messages.ts';
import { until } from '../engine/until.ts';
import { allRunsEnded, openStream, passThroughChain, SERVE_TOKEN, startRun, startServeProcess, type ServeProcess } from './serve-process.ts';

const TOKEN = 'stream-bounds-token-0123456789abcdefghijklmnopqrstuvwxyz';

let root: string | undefined;
let serving: Serving | undefined;
let child: ServeProcess | undefined;

afterEach(async () => {
  await serving?.stop();
  await child?.stop();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  serving = undefined;
  child = undefined;
  root = undefined;
});

function storedCursors(db: string): number[] {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT cursor FROM events ORDER BY cursor').all() as { cursor: number }[]).map((r) => r.cursor);
  } finally {
    d.close();
  }
}

/** Collects the cursors a client receives (one event a frame), in order. */
function collect(ws: WebSocket): number[] {
  const cursors: number[] = [];
  ws.on('message', (data: Buffer) => {
    const m = StreamServerMessage.parse(JSON.parse(data.toString('utf8')));
    if ('cursor' in m) cursors.push(m.cursor);
    if ('events' in m) cursors.push(...m.events.map((e) => e.cursor));
  });
  return cursors;
}

describe('clients that never read', () => {
  it('hold at most the buffer limit each, while catching up and while runs go on, and get every event once they read', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-stream-bounds-'));
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'chain.weft.json'), JSON.stringify(passThroughChain('chain', 5)));
    const db = join(root, 'weft.db');
    serving = await serve({ workspace, storePath: db, port: 0, appDir: undefined, version: 'test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
    const s = serving;
    // Values just under the size the stream elides (64 KiB), so they go out whole: ~40 MB of events.
    const pad = 'x'.repeat(63_000);
    for (let i = 0; i < 60; i++) await startRun(s.url, TOKEN, 'chain', { i, pad });

    const clients = [await openStream(s.url, TOKEN), await openStream(s.url, TOKEN)];
    const received = clients.map((ws) => collect(ws));
    for (const ws of clients) {
      ws.pause(); // reads nothing from its socket from now on
      ws.send(JSON.stringify({ subscribe: { runs: 'all' }, after: 0 }));
    }
    const within = () => {
      const stats = s.streamClients();
      expect(stats).toHaveLength(2);
      for (const c of stats) expect(c.bufferedBytes + c.heldBytes, JSON.stringify(c)).toBeLessThanOrEqual(DEFAULT_BUFFER_LIMIT);
    };
    // Both clients have filled what their sockets take, and wait for them to drain.
    await until(() => {
      const stats = s.streamClients();
      return stats.length === 2 && stats.every((c) => c.waiting || c.bufferedBytes + c.heldBytes > DEFAULT_BUFFER_LIMIT);
    }, 'both clients to fall behind', 60_000);
    within();

    // The engine goes on meanwhile: nothing piles up for the clients that do not read.
    for (let i = 0; i < 10; i++) await startRun(s.url, TOKEN, 'chain', { i: 100 + i, pad });
    await allRunsEnded(s.url, TOKEN);
    within();

    // They read again: every stored event arrives, in order, once.
    const stored = storedCursors(db);
    for (const ws of clients) ws.resume();
    await until(() => received.every((r) => r.at(-1) === stored.at(-1)), 'the clients to catch up', 120_000);
    for (const r of received) expect(r).toEqual(stored);
    for (const ws of clients) ws.close();
  }, 300_000);
});

describe('a client that subscribes again while its socket is full', () => {
  it('waits for the socket before it sends the backlog', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-stream-bounds-'));
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'chain.weft.json'), JSON.stringify(passThroughChain('chain', 5)));
    serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: 'test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
    const s = serving;
    const pad = 'x'.repeat(63_000);
    const ws = await openStream(s.url, TOKEN);
    ws.pause();
    // Live from now on; runs go on until the frames it does not read fill more than half the limit.
    ws.send(JSON.stringify({ subscribe: { runs: 'all' } }));
    await until(() => s.streamClients().length === 1, 'the stream');
    for (let i = 0; (s.streamClients()[0]?.bufferedBytes ?? 0) <= DEFAULT_BUFFER_LIMIT / 2; i++) {
      if (i >= 200) throw new Error('the socket never filled');
      await startRun(s.url, TOKEN, 'chain', { i, pad });
    }
    // More runs: the live path has told the client to resync by now, and the backlog grows.
    for (let i = 0; i < 10; i++) await startRun(s.url, TOKEN, 'chain', { i: 1000 + i, pad });
    await allRunsEnded(s.url, TOKEN);
    // The live path may pass the limit by one frame before it tells the client to resync; the
    // catch-up adds at most its page, held until the socket drains.
    const bound = DEFAULT_BUFFER_LIMIT + MAX_FRAME_BYTES + CATCH_UP_PAGE_CHARS;
    // Everything from the start, while the socket is still full of live frames.
    ws.send(JSON.stringify({ subscribe: { runs: 'all' }, after: 0 }));
    await until(() => {
      const c = s.streamClients()[0];
      return c !== undefined && (c.waiting || c.bufferedBytes + c.heldBytes > bound);
    }, 'the catch-up to wait', 60_000);
    const c = s.streamClients()[0];
    expect(c?.waiting).toBe(true);
    expect((c?.bufferedBytes ?? 0) + (c?.heldBytes ?? 0), JSON.stringify(c)).toBeLessThanOrEqual(bound);
    ws.terminate();
  }, 300_000);
});

describe('a fault while serving one client', () => {
  it('ends that client’s stream with an error; the process, its other clients and the API go on', async () => {
    child = await startServeProcess([passThroughChain('chain', 2)]);
    const c = child;
    for (let i = 0; i < 3; i++) await startRun(c.url, SERVE_TOKEN, 'chain', { i });
    await allRunsEnded(c.url, SERVE_TOKEN);
    // A row the store cannot read (a damaged file, a bad disk): reading it throws.
    const d = new Database(c.db);
    d.prepare("UPDATE events SET data = '{not json' WHERE cursor = 5").run();
    d.close();

    const hurt = await openStream(c.url, SERVE_TOKEN);
    const answer = new Promise<{ error?: { code: string; message: string }; closeCode?: number }>((resolve) => {
      let error: { code: string; message: string } | undefined;
      hurt.on('message', (data: Buffer) => {
        const m = StreamServerMessage.parse(JSON.parse(data.toString('utf8')));
        if ('error' in m) error = m.error;
      });
      hurt.once('close', (code: number) => resolve({ ...(error === undefined ? {} : { error }), closeCode: code }));
    });
    hurt.send(JSON.stringify({ subscribe: { runs: 'all' }, after: 0, batch: true }));
    const outcome = await answer;
    // The process answers (a dead one refuses the connection), and says what went wrong.
    const health = await fetch(`${c.url}/api/health`, { headers: { authorization: `Bearer ${SERVE_TOKEN}` } }).then(
      (r) => r.status,
      (e: unknown) => `unreachable (${String(e)}); weft serve said:\n${c.stderr()}`,
    );
    expect(health).toBe(200);
    expect(c.child.exitCode).toBeNull();
    expect(outcome).toMatchObject({ error: { code: 'internal' }, closeCode: 1011 });
    expect(outcome.error?.message).toMatch(/damaged/);

    // A client that starts past the damaged row is served.
    const fine = await openStream(c.url, SERVE_TOKEN);
    const cursors = collect(fine);
    const live = new Promise<void>((resolve) => fine.on('message', (data: Buffer) => data.toString().includes('"subscribed"') && resolve()));
    fine.send(JSON.stringify({ subscribe: { runs: 'all' }, after: 5 }));
    await live;
    expect(cursors[0]).toBe(6);
    fine.close();
    expect(existsSync(c.endpointFile)).toBe(true);
  }, 120_000);
});
