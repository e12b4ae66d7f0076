// Issue 19, item 10: one WebSocket message used to stop the server. A client that catches up in
// batches (`{"subscribe": {"runs": "all"}, "after": 0, "batch": true}`) over runs holding
// megabytes made the server build one frame of every event of a page, past the longest string V8
// can hold: `RangeError: Invalid string length`, the process gone and its serve.json left behind.
// Here the real `weft serve` (a child process) holds 14 runs that each store a 3.8 MB value 11
// times (about 590 MB of events, more than one string can hold); the client gets every event,
// large values elided, in frames of bounded size, and the server goes on answering.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { StreamServerMessage } from '../../shared/api/stream-messages.ts';
import { isElidedValue } from '../../shared/api/elided-value.ts';
import { allRunsEnded, openStream, passThroughChain, SERVE_TOKEN, startRun, startServeProcess, type ServeProcess } from './serve-process.ts';

const RUNS = 14;
const PAD = 3_800_000;
/** What "bounded" means for a frame here: far below a page of these events, far above one elided event. */
const FRAME_BOUND = 1024 * 1024;

let server: ServeProcess;

beforeAll(async () => {
  server = await startServeProcess([passThroughChain('big', 5)]);
  const pad = 'x'.repeat(PAD);
  for (let i = 0; i < RUNS; i++) await startRun(server.url, SERVE_TOKEN, 'big', { i, pad });
  await allRunsEnded(server.url, SERVE_TOKEN);
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

function storedCursors(db: string): number[] {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT cursor FROM events ORDER BY cursor').all() as { cursor: number }[]).map((r) => r.cursor);
  } finally {
    d.close();
  }
}

describe('a batch catch-up over runs that hold megabytes', () => {
  it('neither throws nor ends the process: every event arrives, elided, in bounded frames, and the server keeps answering', async () => {
    const stored = storedCursors(server.db);
    expect(stored.length).toBeGreaterThan(RUNS * 10);
    const ws: WebSocket = await openStream(server.url, SERVE_TOKEN);
    const frameSizes: number[] = [];
    const cursors: number[] = [];
    let stubs = 0;
    let largestValue = 0;
    const subscribed = new Promise<'live' | number>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        frameSizes.push(data.length);
        const message = StreamServerMessage.parse(JSON.parse(data.toString('utf8')));
        if ('subscribed' in message) resolve('live');
        if ('error' in message) reject(new Error(message.error.message));
        if (!('events' in message)) return;
        for (const { cursor, event } of message.events) {
          cursors.push(cursor);
          for (const value of Object.values(event.data)) {
            if (isElidedValue(value)) {
              stubs += 1;
              largestValue = Math.max(largestValue, value.bytes);
              expect(value.path).toMatch(new RegExp(`^events\\[${event.seq}\\]\\.data\\.`));
            }
          }
        }
      });
      ws.once('close', (code: number) => resolve(code));
    });
    ws.send(JSON.stringify({ subscribe: { runs: 'all' }, after: 0, batch: true }));
    const outcome = await subscribed;
    // The process answers (a dead one refuses the connection), before anything else is looked at.
    const health = await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${SERVE_TOKEN}` } }).then(
      (r) => r.status,
      (e: unknown) => `unreachable (${String(e)}); weft serve said:\n${server.stderr().slice(-2000)}`,
    );
    expect(health).toBe(200);
    expect(outcome, 'the stream closed before it was live').toBe('live');
    ws.close();

    expect(cursors).toEqual(stored);
    // Every run's input (and each copy of it) came as a stub, never whole.
    expect(stubs).toBeGreaterThanOrEqual(RUNS * 11);
    expect(largestValue).toBeGreaterThan(PAD);
    expect(Math.max(...frameSizes)).toBeLessThanOrEqual(FRAME_BOUND);

    expect(server.child.exitCode).toBeNull();
    expect(existsSync(server.endpointFile)).toBe(true);
  }, 600_000);
});
