// What a stream holds for a client between a commit and the next turn (when live events are
// written) is what that client asked for, and nothing else: a run page subscribed to one run
// while 200 others commit must not queue, and wake up for, every event of every run. Two real
// WebSocket clients on one real store, one on every run and one on a single run, while another
// run commits: a probe listening after both reads what each stream holds right after each commit.
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamClient } from '../../engine/server/event-stream.ts';
import { until } from '../engine/harness.ts';
import { bareStream, type BareStream } from './bare-stream.ts';

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

let stream: BareStream | undefined;

afterEach(async () => {
  await stream?.close();
  stream = undefined;
});

describe('a live stream', () => {
  it('holds, between a commit and its next turn, only the events of the runs its client subscribed to', async () => {
    const served = (stream = await bareStream());
    const harnessed = served.h;
    const { runId: watched } = harnessed.start(waiting);
    harnessed.engine.flush();
    await until(() => harnessed.model(watched).state === 'waiting', 'the watched run waits on its task');
    const clients = served.clients;
    await served.subscribe('all');
    await served.subscribe([watched]);
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
