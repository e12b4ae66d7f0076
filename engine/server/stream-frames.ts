// What the live stream puts on the wire: each committed event as JSON text, its large values
// elided as `GET /api/runs/:id/events?elide=` does (ElidedValue stubs, `events[SEQ].data.KEY`
// paths the value route reads back), grouped into frames of bounded size. A frame is one event
// (`{cursor, event}`), or for a batch subscription `{"events": [...]}` with as many events as fit
// in MAX_FRAME_BYTES (one event larger than that goes alone).
import { Buffer } from 'node:buffer';
import { elideEvent, utf8Bytes } from '../../shared/run/elide-values.ts';
import type { CommittedEvent } from '../store/store.ts';

/** A batch frame holds events up to this many bytes (an event larger than that is sent alone). */
export const MAX_FRAME_BYTES = 256 * 1024;

/** One frame of text, the cursor of its last event, and its size in bytes. */
export interface Frame {
  text: string;
  lastCursor: number;
  bytes: number;
}

/**
 * `{cursor, event}` as JSON text, the event's data spliced in as the store wrote it: encoding
 * every event's data again would cost the engine's thread as much as the store's own write.
 */
export function committedJson(c: CommittedEvent): string {
  return withData(c, c.dataJson ?? JSON.stringify(c.event.data));
}

function withData(c: CommittedEvent, data: string): string {
  const e = c.event;
  return `{"cursor":${c.cursor},"event":{"runId":${JSON.stringify(e.runId)},"seq":${e.seq},"at":${e.at},"type":${JSON.stringify(e.type)},"step":${JSON.stringify(e.step)},"activation":${JSON.stringify(e.activation)},"attempt":${JSON.stringify(e.attempt)},"data":${data},"reason":${JSON.stringify(e.reason)}}}`;
}

/**
 * The event as JSON text with each value of its data over `elide` bytes as its stub. An event
 * whose whole data is at most `elide` bytes (nearly all) is spliced as stored, never re-encoded.
 */
export function elidedJson(c: CommittedEvent, elide: number): string {
  const text = c.dataJson ?? JSON.stringify(c.event.data);
  // A UTF-8 text has at least one byte per UTF-16 unit and at most three.
  if (text.length * 3 <= elide || (text.length <= elide && utf8Bytes(text) <= elide)) return withData(c, text);
  const cut = elideEvent(c.event, elide);
  return cut === c.event ? withData(c, text) : withData(c, JSON.stringify(cut.data));
}

/**
 * The events as frames: one each, or batches of at most MAX_FRAME_BYTES (an event larger goes
 * alone). `encode` gives an event's text and bytes (default: encoded here; a server's streams
 * share theirs, event-texts.ts).
 */
export function framesOf(events: readonly CommittedEvent[], o: { batch: boolean; elide: number; maxFrameBytes?: number; encode?: (c: CommittedEvent) => { text: string; bytes: number } }): Frame[] {
  const max = o.maxFrameBytes ?? MAX_FRAME_BYTES;
  const frames: Frame[] = [];
  let group: string[] = [];
  let groupBytes = 0;
  let groupLast = 0;
  const close = (): void => {
    if (group.length === 0) return;
    const text = `{"events":[${group.join(',')}]}`;
    frames.push({ text, lastCursor: groupLast, bytes: groupBytes + group.length + 12 });
    group = [];
    groupBytes = 0;
  };
  const encode = o.encode ?? ((c: CommittedEvent) => {
    const text = elidedJson(c, o.elide);
    return { text, bytes: Buffer.byteLength(text) };
  });
  for (const c of events) {
    const { text, bytes } = encode(c);
    if (!o.batch) {
      frames.push({ text, lastCursor: c.cursor, bytes });
      continue;
    }
    if (group.length > 0 && groupBytes + bytes > max) close();
    group.push(text);
    groupBytes += bytes;
    groupLast = c.cursor;
  }
  close();
  return frames;
}
