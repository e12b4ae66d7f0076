// A server's streams share each live event's wire text (engine/server/event-texts.ts): two clients
// on every run, served with one EventTexts while runs commit, each get every event once, in
// commit order, byte for byte what a stream of their own would send, and the engine's thread
// encodes each event once, not once per client.
import { afterEach, describe, expect, it } from 'vitest';
import { EventTexts } from '../../engine/server/event-texts.ts';
import { elidedJson } from '../../engine/server/stream-frames.ts';
import { STREAM_ELIDE } from '../../shared/api/stream-messages.ts';
import { until } from '../engine/harness.ts';
import { bareStream, type BareStream } from './bare-stream.ts';

const chain = {
  format: 'weft/v1', id: 'chain', version: 1, name: 'Chain',
  steps: [
    ...Array.from({ length: 8 }, (_, i) => ({ id: `s${i}`, kind: 'transform', config: { expression: `{"i": ${i}, "text": "é ${'x'.repeat(i * 10)}"}` } })),
    { id: 'done', kind: 'end' },
  ],
  edges: [...Array.from({ length: 7 }, (_, i) => ({ id: `e${i}`, from: `s${i}`, to: `s${i + 1}` })), { id: 'e7', from: 's7', to: 'done' }],
};

let stream: BareStream | undefined;

afterEach(async () => {
  await stream?.close();
  stream = undefined;
});

/** What one client received: each event's cursor and its text as it came in the frame. */
interface Received {
  cursors: number[];
  texts: string[];
}

describe('streams of one server', () => {
  it('encode each live event once for all their clients, and each client gets every event once, in order, as its own stream would send it', async () => {
    const texts = new EventTexts();
    const served = (stream = await bareStream({ texts }));
    const harnessed = served.h;

    // Live from now on (no `after`): only what the runs below commit.
    const subscribe = async (): Promise<Received> => {
      const got: Received = { cursors: [], texts: [] };
      await served.subscribe('all', (text) => {
        const m = JSON.parse(text) as { events?: { cursor: number }[] };
        // The frame is `{"events":[E1,E2…]}`: each event's text is cut out of the frame as sent.
        const inner = text.slice('{"events":['.length, -2);
        let from = 0;
        for (const e of m.events ?? []) {
          const json = JSON.stringify(e);
          got.cursors.push(e.cursor);
          // Find the event's exact text: it starts at `from` and parses back to `e`.
          let end = inner.indexOf(',{"cursor":', from);
          if (end < 0) end = inner.length;
          const piece = inner.slice(from, end);
          expect(JSON.stringify(JSON.parse(piece))).toBe(json);
          got.texts.push(piece);
          from = end + 1;
        }
      });
      return got;
    };
    const a = await subscribe();
    const b = await subscribe();
    const first = harnessed.store.readEventsAfter(0, { limit: 100_000 }).at(-1)?.cursor ?? 0;

    const runs = [harnessed.start(chain).runId, harnessed.start(chain).runId];
    for (const run of runs) expect(await harnessed.engine.settled(run)).toBe('succeeded');
    harnessed.engine.flush();
    const committed = harnessed.store.readEventsAfter(first, { limit: 100_000 });
    expect(committed.length).toBeGreaterThan(30);
    const all = committed.map((c) => c.cursor);
    await until(() => a.cursors.length >= all.length && b.cursors.length >= all.length, 'both clients received every event');

    // Every event once, in commit order, to each client...
    expect(a.cursors).toEqual(all);
    expect(b.cursors).toEqual(all);
    // ...as the same text, the one a stream encoding for itself sends (the store's own data text)...
    const expected = committed.map((c) => elidedJson(c, STREAM_ELIDE));
    expect(a.texts).toEqual(expected);
    expect(b.texts).toEqual(expected);
    // ...encoded once for the two of them.
    expect(texts.encoded).toBe(all.length);
  });
});
