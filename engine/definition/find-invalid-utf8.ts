// TextDecoder in fatal mode says *that* bytes are not UTF-8 but not *where*. This finds the
// first ill-formed sequence (Unicode 15, table 3-7) so the diagnostic can point at it.

/**
 * Returns the byte offset where the first ill-formed UTF-8 sequence starts, or -1 if none.
 *
 * @example
 * findInvalidUtf8(new Uint8Array([0x7b, 0xff])) // 1
 */
export function findInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const shape = sequenceShape(lead);
    if (shape === undefined) return i;
    const [length, secondMin, secondMax] = shape;
    for (let k = 1; k < length; k++) {
      const b = bytes[i + k];
      const min = k === 1 ? secondMin : 0x80;
      const max = k === 1 ? secondMax : 0xbf;
      if (b === undefined || b < min || b > max) return i;
    }
    i += length;
  }
  return -1;
}

/** Sequence length and the allowed range of the second byte for a lead byte ≥ 0x80. */
function sequenceShape(lead: number): [number, number, number] | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f]; // excludes UTF-16 surrogates
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f]; // nothing above U+10FFFF
  return undefined; // a continuation byte, an overlong lead (C0, C1) or F5..FF
}
