// Keeps the last bytes of a stream (a command's stderr, a script's console output), so an error
// message can quote what the program said last without holding everything it ever printed.

export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;

  constructor(private readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    // Drop whole chunks from the front while the rest still covers the limit.
    while (this.chunks.length > 1 && this.size - (this.chunks[0]?.length ?? 0) >= this.limitBytes) {
      this.size -= this.chunks.shift()?.length ?? 0;
      this.dropped = true;
    }
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.dropped = false;
  }

  /** The last `limitBytes` as text; "…" marks a cut. A character split by the cut is dropped. */
  text(): string {
    const all = Buffer.concat(this.chunks);
    const cut = this.dropped || all.length > this.limitBytes;
    let tail = all.subarray(Math.max(0, all.length - this.limitBytes));
    // Skip UTF-8 continuation bytes left over from a character the cut went through.
    let start = 0;
    while (cut && start < tail.length && start < 3 && ((tail[start] ?? 0) & 0xc0) === 0x80) start++;
    tail = tail.subarray(start);
    const text = tail.toString('utf8').trimEnd();
    return cut ? `…${text}` : text;
  }
}
