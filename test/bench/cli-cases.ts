// What the CLI benchmark times, each as a fresh process: `node -e 0` and loading the bundle (the
// floor under every command), `weft --version`, `weft resume` of 1,000 parked runs (the engine
// bench's killed store) and `weft run` of record-update against the fake API in a child process.
// Each case checks the command really did its work, so a failing command cannot pass as fast.
// Targets (issue 20, step 9): --version within 1.3× `node -e 0` (Node's own start, the case's
// floor), resume in 250 ms and the run in 300 ms of wall time on an idle machine.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundlePath } from '../../bin/source-stamp.js';
import { measureCliResume } from './engine-measure.ts';
import { recordRevision } from './fake-api-process.ts';
import { timeNode, type ProcessSample } from './process-timer.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/weft.js');
const RECORD_UPDATE = join(ROOT, 'examples/record-update.weft.json');

/** How `weft` is started: the fresh bundle, or the TypeScript sources through tsx. */
export interface Variant {
  name: string;
  env: Record<string, string>;
}

export const BUNDLE: Variant = { name: 'bundle', env: { WEFT_FROM_SOURCE: '0' } };
/** The bundle without V8's code cache (bin/code-cache.js): what the cache saves a command. */
export const NO_CACHE: Variant = { name: 'no-cache', env: { WEFT_FROM_SOURCE: '0', WEFT_CODE_CACHE_DIR: '' } };
export const TSX: Variant = { name: 'tsx', env: { WEFT_FROM_SOURCE: '1' } };

export interface CliContext {
  /** The engine bench's store of parked runs, left by a SIGKILLed process. */
  killed: string;
  apiUrl: string;
  /** A folder for the stores of `weft run`, one per variant. */
  tmp: string;
  /** Counts the runs, so each writes a value the record does not hold yet. */
  runs: number;
}

/** How fast a case must be: a wall time, or a multiple of Node's own start (`node -e 0`). */
export type CliTarget = { ms: number } | { timesNode: number };

export interface CliCase {
  name: string;
  target?: CliTarget;
  /** Whether the case depends on the variant (the floor rows do not). */
  perVariant: boolean;
  measure(variant: Variant, ctx: CliContext): Promise<ProcessSample>;
}

function expectExit<S extends ProcessSample>(what: string, sample: S, code: number): S {
  if (sample.code !== code) throw new Error(`${what} exited ${sample.code}, expected ${code}\nstdout: ${sample.stdout.slice(0, 2000)}\nstderr: ${sample.stderr.slice(0, 2000)}`);
  return sample;
}

const version = (): string => (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The floor the `timesNode` targets are multiples of. */
export const NODE_ALONE = 'node -e 0 (Node alone)';

export const CASES: readonly CliCase[] = [
  {
    name: NODE_ALONE,
    perVariant: false,
    measure: async () => expectExit('node -e 0', await timeNode(['-e', '0'], ROOT), 0),
  },
  {
    name: 'node + import the bundle, no command',
    perVariant: false,
    measure: async () => {
      const href = pathToFileURL(join(ROOT, 'dist/cli/weft.js')).href;
      return expectExit('import of dist/cli/weft.js', await timeNode(['--input-type=module', '-e', `await import(${JSON.stringify(href)})`], ROOT), 0);
    },
  },
  {
    name: 'weft --version',
    target: { timesNode: 1.3 },
    perVariant: true,
    measure: async (variant) => {
      const sample = expectExit('weft --version', await timeNode([BIN, '--version'], ROOT, variant.env), 0);
      if (sample.stdout.trim() !== version()) throw new Error(`weft --version printed ${JSON.stringify(sample.stdout)}`);
      return sample;
    },
  },
  {
    name: 'weft resume, 1,000 parked runs',
    target: { ms: 250 },
    perVariant: true,
    measure: async (variant, ctx) => {
      // Parked on a one-hour timer, every run is still waiting afterwards: exit 3, one line per run.
      const sample = expectExit('weft resume', await measureCliResume(ctx.killed, variant.env), 3);
      if (sample.lines !== 1_000) throw new Error(`weft resume printed ${sample.lines} runs, expected 1,000`);
      return sample;
    },
  },
  {
    name: 'weft run record-update (fake API)',
    target: { ms: 300 },
    perVariant: true,
    measure: async (variant, ctx) => {
      // A real write each time: the base revision the record is at now, and a value it does not hold.
      ctx.runs += 1;
      const input = { apiBase: ctx.apiUrl, recordId: 'A17', field: 'status', value: ctx.runs % 2 === 0 ? 'archived' : 'on_hold', baseRevision: await recordRevision(ctx.apiUrl, 'A17'), recipient: 'R2' };
      const db = join(ctx.tmp, `${variant.name}.db`);
      const sample = expectExit('weft run record-update', await timeNode([BIN, 'run', RECORD_UPDATE, '--input', JSON.stringify(input), '--db', db, '--json'], ROOT, variant.env), 0);
      const reply = JSON.parse(sample.stdout) as { state?: unknown };
      if (reply.state !== 'succeeded') throw new Error(`weft run record-update ended ${String(reply.state)}: ${sample.stdout}`);
      return sample;
    },
  },
];

/** Builds dist/cli/ when it is missing or older than the sources; says whether it had to. */
export function ensureFreshBundle(print: (line: string) => void): void {
  if (freshBundlePath(ROOT) !== undefined) {
    print('dist/cli/ is fresh (built from the sources as they are)');
    return;
  }
  print('dist/cli/ is missing or stale: building it (node build/bundle-cli.mjs)');
  const built = spawnSync(process.execPath, [join(ROOT, 'build/bundle-cli.mjs')], { cwd: ROOT, encoding: 'utf8' });
  for (const line of `${built.stdout}${built.stderr}`.split('\n')) if (line !== '') print(`  ${line}`);
  if (built.status !== 0 || freshBundlePath(ROOT) === undefined) throw new Error('node build/bundle-cli.mjs did not leave a fresh dist/cli/');
}
