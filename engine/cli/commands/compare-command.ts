// `weft compare RUN_A RUN_B [--store URL|PATH | --db PATH] [--json]`: two runs side by side. The
// comparison is shared/run/compare-runs.ts (the same one `GET /api/compare` answers and the app
// shows), read through the service's RunReader over the store opened read-only.
import type { Command } from '../command.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { formatComparison } from '../compare-text.ts';
import type { RunComparison } from '../../../shared/api/run-comparison.ts';
import { storeFlagsHelp } from '../store-path.ts';

export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare two runs: the path each took, the first difference, each step side by side',
  usage: 'weft compare RUN_A RUN_B [--store URL|PATH | --db PATH] [--json]',
  help: `Compares run A with run B (each an id or a unique prefix, as \`weft runs\` lists them): the
steps each reached, in the order it reached them, the first step where they differ, what each
step did and the time its attempts took side by side (none for a step that did not run), and for
runs of different versions the diff of the versions (as \`weft diff\` shows it).

Steps are compared in a topological order of both versions' graphs. At each step the first
difference looked for is its path (reached in one run only, activated a different number of
times, or settled alike but left by edges to other steps), then its resolved input, its outcome,
and its output; input and output differences name each field by its JSON path. docs/compare.md
gives the rules.

${storeFlagsHelp(14)}
  --json      print {"runs":[A,B],"firstDifference":{"stepId","kind","paths"?,"fields"?,"why"}|null,
              "steps":[{"id","a","b","differs","fields"}],"route":{"a","b"},"inputDiff",
              "inputDiffTotal","versionDiff","same"}; each side {"state","outcome","attempts","activations","ran",
              "reached","lastAttempt","next","attempt","input","output","error","startedAtMs",
              "endedAtMs","durationMs"}, every value whole

Exit status: 0 the runs took the same path to the same outcomes and outputs (inputs may differ:
--json still names them), 1 they differ, 2 usage error, no store, or an unknown run.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    const [a, b, ...extra] = positionals;
    if (a === undefined || b === undefined || extra.length > 0) {
      throw new UsageError(`give exactly two runs to compare (got ${positionals.length}): each a run id or a unique prefix, as \`weft runs\` lists them`);
    }
    return withReadOnlyStore('compare', io, values, (reader) => {
      const comparison = reader.runComparison(a, b);
      io.stdout.write(values.json === true ? `${JSON.stringify(comparison)}\n` : formatComparison(comparison));
      return sameResult(comparison) ? EXIT_OK : EXIT_FAILED;
    });
  },
};

/**
 * The exit status's question (issue 13's contract): did the runs take the same path to the same
 * outcomes and outputs? A step given another input that still did the same counts as the same.
 */
export function sameResult(comparison: RunComparison): boolean {
  return comparison.steps.every((s) => s.differs.every((kind) => kind === 'input'));
}
