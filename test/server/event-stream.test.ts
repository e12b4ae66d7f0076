// The live stream over a real WebSocket: a client that drops the connection at random points
// while runs are committing, and resubscribes after the last cursor it saw, receives every event
// exactly once, in commit order. A client that falls behind is told to resync, and a resubscribe
// from its cursor then delivers what it missed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { seededRandom } from '../crash/seeded-random.ts';
import { harness, until } from '../engine/harness.ts';
import { serveEventStream } from '../../engine/server/event-stream.ts';

const TOKEN = 'stream-test-token-abcdefghijklmnopqrstuvwxyz0123456789';

const chain = {
  format: 'weft/v1',
  id: 'chain',
  version: 1,
  name: 'Chain',
  steps: [
    ...Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, kind: 'transform', config: { expression: `{"i": ${i}}` } })),
    { id: 'done', kind: 'end' },
  ],
  edges: [...Array.from({ length: 5 }, (_, i) => ({ id: `e${i}`, from: `s${i}`, to: `s${i + 1}` })), { id: 'e5', from: 's5', to: 'done' }],
};

let root: string | undefined;
let serving: Serving | undefined;

afterEach(async () => {
  await serving?.stop();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  serving = undefined;
  root = undefined;
});

async function start(streamBufferLimit?: number): Promise<{ serving: Serving; db: string }> {
  root = mkdtempSync(join(tmpdir(), 'weft-stream-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'chain.weft.json'), JSON.stringify(chain));
  const db = join(root, 'weft.db');
  serving = await serve({ workspace, storePath: db, port: 0, appDir: undefined, version: 'test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') }, ...(streamBufferLimit === undefined ? {} : { streamBufferLimit }) });
  return { serving, db };
}

const startRun = (s: Serving, i: number) =>
  fetch(`${s.url}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ workflow: 'chain', input: { i } }) }).then((r) => {
    if (r.status !== 201) throw new Error(`start failed: ${r.status}`);
  });

/** Every cursor in the store, in order: what a complete subscriber must have received. */
function storedCursors(db: string): number[] {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT cursor FROM events ORDER BY cursor').all() as { cursor: number }[]).map((r) => r.cursor);
  } finally {
    d.close();
  }
}

interface Message {
  cursor?: number;
  event?: { runId: string; seq: number };
  resync?: { after: number };
  subscribed?: { cursor: number };
}

function connect(s: Serving): Promise<WebSocket> {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/stream`, ['weft', `weft.bearer.${TOKEN}`]);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

describe('WS /api/stream', () => {
  it('a client that disconnects at random points and resumes from its cursor gets every event once, in order', async () => {
    const { serving: s, db } = await start();
    const random = seededRandom(20261201);
    const received: number[] = [];
    let last = 0;
    const writers = (async () => {
      for (let i = 0; i < 40; i++) {
        await startRun(s, i);
        if (i % 5 === 0) await new Promise((r) => setTimeout(r, 5));
      }
    })();
    let writing = true;
    void writers.then(() => (writing = false));
    let sessions = 0;
    while (writing || received.length === 0 || last < Math.max(...storedCursors(db))) {
      sessions += 1;
      const ws = await connect(s);
      const budget = Math.floor(random() * 120) + 1;
      await new Promise<void>((resolve) => {
        let got = 0;
        ws.on('message', (data: Buffer) => {
          const m = JSON.parse(data.toString()) as Message;
          if (m.cursor === undefined) return;
          expect(m.cursor).toBeGreaterThan(last);
          received.push(m.cursor);
          last = m.cursor;
          got += 1;
          if (got >= budget) ws.terminate(); // drop mid-stream, without a close handshake
        });
        ws.on('close', () => resolve());
        ws.send(JSON.stringify({ subscribe: { runs: 'all' }, after: last }));
        setTimeout(() => ws.terminate(), 150 + Math.floor(random() * 150));
      });
      if (sessions > 500) throw new Error('the client never caught up');
    }
    await writers;
    const all = storedCursors(db);
    expect(all.length).toBeGreaterThan(40 * 8);
    expect(received).toEqual(all);
    expect(sessions).toBeGreaterThan(3);
  });

  it('a client past the buffer limit is told to resync, and resubscribing delivers the rest', async () => {
    // A socket whose unsent bytes the test sets: a loopback socket drains too fast to fall behind
    // on a small run. The stream is attached to a real engine's store.
    const h = harness();
    const sent: Message[] = [];
    const handlers = new Map<string, (data: Buffer) => void>();
    const socket = {
      OPEN: 1,
      readyState: 1,
      bufferedAmount: 0,
      send: (text: string) => sent.push(JSON.parse(text) as Message),
      on: (name: string, handler: (data: Buffer) => void) => handlers.set(name, handler),
    };
    const subscribe = (after: number) => handlers.get('message')?.(Buffer.from(JSON.stringify({ subscribe: { runs: 'all' }, after })));
    const received = () => sent.filter((m) => m.cursor !== undefined).map((m) => m.cursor);
    const stored = () => h.store.readEventsAfter(0, { limit: 10_000 }).map((c) => c.cursor);
    try {
      // serveEventStream reads the socket through these members only.
      serveEventStream(socket as unknown as Parameters<typeof serveEventStream>[0], h.store, { bufferLimit: 1000 });
      await h.engine.settled(h.start(chain).runId);
      subscribe(0);
      await until(() => sent.some((m) => m.subscribed !== undefined), 'the subscription');
      expect(received()).toEqual(stored());
      // Live events while 5,000 bytes sit unsent: the client is told to resync from its cursor.
      socket.bufferedAmount = 5000;
      await h.engine.settled(h.start(chain).runId);
      await until(() => sent.some((m) => m.resync !== undefined), 'the resync');
      const resync = sent.find((m) => m.resync !== undefined)?.resync;
      expect(resync?.after).toBe(received().at(-1));
      expect(received().length).toBeLessThan(stored().length);
      // It drained and subscribes again from that cursor: the rest comes, nothing twice.
      socket.bufferedAmount = 0;
      subscribe(resync?.after ?? 0);
      await until(() => received().at(-1) === stored().at(-1), 'the missed events');
      expect(received()).toEqual(stored());
    } finally {
      handlers.get('close')?.(Buffer.alloc(0));
      h.close();
    }
  });

  it('refuses a connection without the token, and a malformed subscription gets an error message', async () => {
    const { serving: s } = await start();
    const refused = new WebSocket(`${s.url.replace('http', 'ws')}/api/stream`, ['weft']);
    const status = await new Promise<number>((resolve) => refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    refused.on('error', () => {}); // terminating a refused handshake reports it as an error
    refused.terminate();
    expect(status).toBe(401);
    const ws = await connect(s);
    const reply = await new Promise<{ error?: { code: string; path?: string } }>((resolve) => {
      ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()) as { error?: { code: string } }));
      ws.send(JSON.stringify({ subscribe: { runs: 'some' } }));
    });
    ws.close();
    expect(reply.error?.code).toBe('bad-input');
    expect(reply.error?.path).toBe('$.subscribe.runs');
  });
});

describe('committedJson', () => {
  it('writes exactly the {cursor, event} the store holds, with the stored data text spliced in', async () => {
    const { serving: s, db } = await start();
    await startRun(s, 7);
    const { openDatabase } = await import('../../engine/store/open-database.ts');
    const { Store } = await import('../../engine/store/store.ts');
    const { committedJson } = await import('../../engine/server/stream-frames.ts');
    const conn = openDatabase(db, { mode: 'read' });
    const store = new Store(conn);
    const committed = store.readEventsAfter(0, { limit: 100 });
    expect(committed.length).toBeGreaterThan(5);
    for (const c of committed) {
      expect(JSON.parse(committedJson(c))).toEqual({ cursor: c.cursor, event: c.event });
      const { dataJson: _text, ...plain } = c;
      expect(JSON.parse(committedJson(plain))).toEqual({ cursor: c.cursor, event: c.event });
    }
    conn.close();
  });
});
