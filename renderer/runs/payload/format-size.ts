// Sizes and counts as the JSON view says them: "5.1 MB", "40,000 items", "3 keys".

/** Bytes in B, KB, MB (powers of 1024, one decimal under 10). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US')} ${units[u] ?? 'GB'}`;
}

/** "1 item", "40,000 items", "3 keys", "12 characters". */
export function formatCount(n: number, kind: string): string {
  const noun = kind === 'array' ? 'item' : kind === 'object' ? 'key' : 'character';
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
