// Each live event's wire text, encoded once for every stream of the server: the store hands all
// its listeners the same CommittedEvent object, so the text the first stream encodes is kept
// beside that object (a WeakMap: it goes when the event does) and the other streams reuse it.
// Two pages open on every run cost the engine's thread one encoding per event, not two.
import { Buffer } from 'node:buffer';
import { STREAM_ELIDE } from '../../shared/api/stream-messages.ts';
import type { CommittedEvent } from '../store/store.ts';
import { elidedJson } from './stream-frames.ts';

/** An event's text on the wire and its size in bytes. */
export interface EventText {
  text: string;
  bytes: number;
}

export class EventTexts {
  private readonly texts = new WeakMap<CommittedEvent, EventText>();
  /** Events encoded so far (tests: a shared event is encoded once, whatever the streams). */
  encoded = 0;

  /** `elide`: the threshold whose texts are kept (the default subscription's); others are encoded each time. */
  constructor(private readonly elide: number = STREAM_ELIDE) {}

  /** The text of `c` with values over `elide` bytes elided, from the cache where it can be. */
  of(c: CommittedEvent, elide: number): EventText {
    if (elide !== this.elide) return this.encode(c, elide);
    let t = this.texts.get(c);
    if (t === undefined) {
      t = this.encode(c, elide);
      this.texts.set(c, t);
    }
    return t;
  }

  private encode(c: CommittedEvent, elide: number): EventText {
    this.encoded += 1;
    const text = elidedJson(c, elide);
    return { text, bytes: Buffer.byteLength(text) };
  }
}
