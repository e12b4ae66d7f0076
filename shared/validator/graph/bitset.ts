// Fixed-size bit sets over step indices, stored in one shared buffer. The data-handoff check keeps
// one set per step; for 10,000 steps that is 12.5 MB and a union is 313 word operations.

export class BitsetTable {
  readonly words: number;
  private readonly data: Uint32Array;

  constructor(readonly size: number, readonly rows: number) {
    this.words = Math.ceil(size / 32);
    this.data = new Uint32Array(this.words * rows);
  }

  has(row: number, bit: number): boolean {
    return ((this.data[row * this.words + (bit >>> 5)] ?? 0) & (1 << (bit & 31))) !== 0;
  }

  set(row: number, bit: number): void {
    const k = row * this.words + (bit >>> 5);
    this.data[k] = (this.data[k] ?? 0) | (1 << (bit & 31));
  }

  /** row := source (copy). */
  copy(row: number, source: number): void {
    this.data.copyWithin(row * this.words, source * this.words, (source + 1) * this.words);
  }

  union(row: number, source: number): void {
    const a = row * this.words;
    const b = source * this.words;
    for (let k = 0; k < this.words; k++) this.data[a + k] = (this.data[a + k] ?? 0) | (this.data[b + k] ?? 0);
  }

  intersect(row: number, source: number): void {
    const a = row * this.words;
    const b = source * this.words;
    for (let k = 0; k < this.words; k++) this.data[a + k] = (this.data[a + k] ?? 0) & (this.data[b + k] ?? 0);
  }
}
