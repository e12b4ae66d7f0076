// The offset finder must agree with TextDecoder about what is UTF-8, and point at the right byte.
import { describe, expect, it } from 'vitest';
import { findInvalidUtf8 } from '../../engine/definition/find-invalid-utf8.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('findInvalidUtf8', () => {
  it.each([
    ['ASCII', bytes('{"a": 1}'), -1],
    ['2, 3 and 4 byte sequences', bytes('é € 😀 \u{10FFFF}'), -1],
    ['a stray 0xFF', bytes('ab', [0xff]), 2],
    ['a lone continuation byte', bytes([0x80]), 0],
    ['an overlong encoding of "/"', bytes('x', [0xc0, 0xaf]), 1],
    ['an overlong 3-byte sequence', bytes([0xe0, 0x80, 0xaf]), 0],
    ['a UTF-16 surrogate', bytes('ok', [0xed, 0xa0, 0x80]), 2],
    ['a code point above U+10FFFF', bytes([0xf4, 0x90, 0x80, 0x80]), 0],
    ['a sequence cut off by the end', bytes('€', [0xe2, 0x82]), 3],
    ['a lead byte followed by ASCII', bytes([0xc3, 0x41]), 0],
    ['Latin-1 "é" inside a string', bytes('"caf', [0xe9], '"'), 4],
  ])('%s', (_name, input, offset) => {
    expect(findInvalidUtf8(input)).toBe(offset);
  });

  it('agrees with a fatal TextDecoder on pseudo-random bytes', () => {
    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 2000; round++) {
      // Mostly high bytes, so both valid and invalid multi-byte sequences occur often.
      const input = Uint8Array.from({ length: 1 + (next() % 12) }, () => (next() % 3 === 0 ? next() % 128 : 128 + (next() % 128)));
      let decodes = true;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(input);
      } catch {
        decodes = false;
      }
      expect(findInvalidUtf8(input) === -1, `bytes ${Buffer.from(input).toString('hex')}`).toBe(decodes);
    }
  });
});
