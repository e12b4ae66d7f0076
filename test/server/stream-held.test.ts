// What a stream holds for a client between a commit and the next turn (when live events are
// written) is what that client asked for, and nothing else: a run page subscribed to one run
// while 200 others commit must not queue, and wake up for, every event of every run. Two real
// WebSocket clients on one real store, one on every run and one on a single run, while another
// run commits: a probe listening after both reads what each stream holds right after each commit.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { serveEventStream, type StreamClient } from '../../engine/server/event-stream.ts';
import { harness, until, type Harness } from '../engine/harness.ts';

const waiting = {
  format: 'weft/v1', id: 'waiting', version: 1, name: 'Waiting',
  steps: [
    { id: 'check', kind: 'human', config: { task: 'approve', title: 'Check', assignee: 'ana' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'check', to: 'done' }],
};
const chain = {
  format: 'weft/v1', id: 'chain', version: 1, name: 'Chain',
  steps: [
    ...Array.from({ length: 5 }, (_, i) => ({ id: `s${i}`, kind: 'transform', config: { expression: `{"i": ${i}}` } })),
    { id: 'done', kind: 'end' },
  ],
  edges: [...Array.from({ length: 4 }, (_, i) => ({ id: `e${i}`, from: `s${i}`, to: `s${i + 1}` })), { id: 'e4', from: 's4', to: 'done' }],
};

let h: Harness | undefined;
let wss: WebSocketServer | undefined;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await new Promise<void>((resolve) => (wss === undefined ? resolve() : wss.close(() => resolve())));
  h?.close();
  if (h !== undefined) rmSync(h.dir, { recursive: true, force: true });
  h = undefined;
  wss = undefined;
});

describe('a live stream', () => {
  it('holds, between a commit and its next turn, only the events of the runs its client subscribed to', async () => {
    const harnessed = (h = harness());
    const { runId: watched } = harnessed.start(waiting);
    harnessed.engine.flush();
    await until(() => harnessed.model(watched).state === 'waiting', 'the watched run waits on its task');
    const server = (wss = new WebSocketServer({ host: '127.0.0.1', port: 0 }));
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const clients: StreamClient[] = [];
    server.on('connection', (socket) => clients.push(serveEventStream(socket, harnessed.store)));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const subscribe = async (runs: 'all' | string[]): Promise<void> => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}`);
      sockets.push(ws);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const subscribed = new Promise<void>((resolve) => ws.on('message', (d: Buffer) => JSON.parse(d.toString()).subscribed !== undefined && resolve()));
      ws.send(JSON.stringify({ subscribe: { runs }, batch: true }));
      await subscribed;
    };
    await subscribe('all');
    await subscribe([watched]);
    expect(clients).toHaveLength(2);
    const [everyRun, oneRun] = clients as [StreamClient, StreamClient];

    // Listening after both streams: at each event, what each holds for its next turn.
    const held = { everyRun: [] as number[], oneRun: [] as number[] };
    harnessed.store.subscribe(() => {
      held.everyRun.push(everyRun.stats().heldBytes);
      held.oneRun.push(oneRun.stats().heldBytes);
    });
    const { runId: other } = harnessed.start(chain);
    await harnessed.engine.settled(other);

    expect(held.everyRun.length).toBeGreaterThan(5);
    // The probe sees what a stream holds: the client on every run holds the other run's events...
    expect(Math.max(...held.everyRun)).toBeGreaterThan(0);
    // ...and the client on the watched run holds none of them.
    expect(held.oneRun.every((bytes) => bytes === 0)).toBe(true);
  });
});
