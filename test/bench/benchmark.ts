// What every test/bench/*-bench.ts file exports, so run.ts can find and run it.

export interface Benchmark {
  name: string;
  description: string;
  /** Runs the benchmark, writing its report line by line; `store` postgres adds PostgreSQL rows where it has them. */
  run(print: (line: string) => void, options?: { store: 'sqlite' | 'postgres' }): Promise<void>;
}

export function isBenchmark(value: unknown): value is Benchmark {
  return (
    typeof value === 'object' &&
    value !== null &&
    'name' in value &&
    typeof value.name === 'string' &&
    'run' in value &&
    typeof value.run === 'function'
  );
}

/** Median of the samples (they are sorted in place). */
export function median(samples: number[]): number {
  samples.sort((a, b) => a - b);
  const mid = samples.length >> 1;
  return samples.length % 2 === 1 ? (samples[mid] ?? 0) : ((samples[mid - 1] ?? 0) + (samples[mid] ?? 0)) / 2;
}

/** Formats rows as a plain-text table; the first row is the header, numbers align right. */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  const line = (r: readonly string[]): string =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  const [header, ...body] = rows;
  return header === undefined ? [] : [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
}
