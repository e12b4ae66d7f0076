// `npm run bench [-- NAME...] [--store postgres]`: runs every test/bench/*-bench.ts (or the named
// ones) in name order. A new benchmark is one new file exporting `benchmark`; nothing here changes.
// `--store postgres` asks the benchmarks that have PostgreSQL rows (engine) for them too.
import { readdir } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { isBenchmark } from './benchmark.ts';

const SUFFIX = '-bench.ts';

async function main(args: readonly string[]): Promise<number> {
  const at = args.indexOf('--store');
  const store = at < 0 ? 'sqlite' : args[at + 1];
  if (store !== 'sqlite' && store !== 'postgres') {
    process.stderr.write(`bench: --store takes sqlite or postgres; got ${store ?? 'nothing'}\n`);
    return 2;
  }
  const only = at < 0 ? args : [...args.slice(0, at), ...args.slice(at + 2)];
  const dir = new URL('./', import.meta.url);
  const files = (await readdir(dir)).filter((f) => f.endsWith(SUFFIX)).sort();
  const known = files.map((f) => f.slice(0, -SUFFIX.length));
  const unknown = only.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`bench: no benchmark named ${unknown.join(', ')}; there are: ${known.join(', ')}\n`);
    return 2;
  }
  process.stdout.write(`node ${process.version}, ${availableParallelism()} cores, ${cpus()[0]?.model ?? 'unknown cpu'}\n`);
  for (const file of files) {
    const mod: unknown = await import(new URL(file, dir).href);
    const bench = mod !== null && typeof mod === 'object' && 'benchmark' in mod ? mod.benchmark : undefined;
    if (!isBenchmark(bench)) {
      process.stderr.write(`bench: ${file} does not export a \`benchmark\` (see test/bench/benchmark.ts)\n`);
      return 2;
    }
    if (only.length > 0 && !only.includes(bench.name)) continue;
    process.stdout.write(`\n== ${bench.name}: ${bench.description}\n`);
    const started = performance.now();
    await bench.run((line) => process.stdout.write(`${line}\n`), { store });
    process.stdout.write(`(${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
