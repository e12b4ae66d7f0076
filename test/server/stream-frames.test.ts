// The stream's frames over a real engine's events: a small event is the stored text spliced in,
// a large one is elided exactly as the events route elides it, and batch frames keep every event
// in order while none passes the frame size (unless one event alone does).
import { afterEach, describe, expect, it } from 'vitest';
import { elideEvent } from '../../shared/run/elide-values.ts';
import { committedJson, elidedJson, framesOf } from '../../engine/server/stream-frames.ts';
import { harness, type Harness } from '../engine/harness.ts';
import type { CommittedEvent } from '../../engine/store/store.ts';

let h: Harness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const chain = {
  format: 'weft/v1',
  id: 'frames',
  version: 1,
  name: 'Frames',
  steps: [
    { id: 'a', kind: 'transform', input: 'input', config: { expression: 'input' } },
    { id: 'b', kind: 'transform', config: { expression: '{"n": 1}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'a', to: 'b' }, { id: 'e2', from: 'b', to: 'done' }],
};

async function events(pad: number): Promise<CommittedEvent[]> {
  h = harness();
  const { runId } = h.start(chain, { pad: 'é'.repeat(pad) });
  expect(await h.engine.settled(runId)).toBe('succeeded');
  h.engine.flush();
  return h.store.readEventsAfter(0, { limit: 1000 });
}

describe('elidedJson', () => {
  it('splices a small event as stored, and elides a large one as GET /api/runs/:id/events?elide= does', async () => {
    // 40,000 "é" are 80,000 bytes of UTF-8 but 40,000 characters: the size is counted in bytes.
    const all = await events(40_000);
    let cut = 0;
    for (const c of all) {
      const text = elidedJson(c, 64 * 1024);
      const expected = elideEvent(c.event, 64 * 1024);
      expect(JSON.parse(text)).toEqual({ cursor: c.cursor, event: expected });
      if (expected === c.event) expect(text).toBe(committedJson(c));
      else cut += 1;
    }
    expect(cut).toBeGreaterThanOrEqual(3); // the run's input, a's input and a's output
  });
});

describe('framesOf', () => {
  it('batches keep every event in order, each frame within the size unless one event alone is larger', async () => {
    const all = await events(20_000);
    const max = 16 * 1024;
    const frames = framesOf(all, { batch: true, elide: 1024 * 1024, maxFrameBytes: max });
    const parsed = frames.map((f) => JSON.parse(f.text) as { events: { cursor: number }[] });
    expect(parsed.flatMap((p) => p.events.map((e) => e.cursor))).toEqual(all.map((c) => c.cursor));
    frames.forEach((f, i) => {
      const count = parsed[i]?.events.length ?? 0;
      expect(f.bytes).toBe(Buffer.byteLength(f.text));
      expect(f.lastCursor).toBe(parsed[i]?.events.at(-1)?.cursor);
      if (count > 1) expect(f.bytes).toBeLessThanOrEqual(max + 13 + count);
    });
    expect(frames.some((f) => f.bytes > max)).toBe(true); // the 40 KB values go alone
    expect(frames.length).toBeLessThan(all.length); // and the small events share frames
    const single = framesOf(all, { batch: false, elide: 1024 * 1024 });
    expect(single.map((f) => JSON.parse(f.text) as unknown)).toEqual(all.map((c) => JSON.parse(committedJson(c)) as unknown));
  });
});
