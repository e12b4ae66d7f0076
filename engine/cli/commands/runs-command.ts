// `weft runs [--store URL|PATH | --db PATH] [--limit N] [--json]`: the newest runs of the store.
import type { Command } from '../command.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

export const runsCommand: Command = {
  name: 'runs',
  summary: 'list the runs of the store, newest first',
  usage: 'weft runs [--store URL|PATH | --db PATH] [--limit N] [--kind run|replay] [--json]',
  help: `Lists runs, newest first: id, workflow and version, state, input revision, start time.

  --limit N    how many (default 50)
  --kind K     run (the default) or replay: the replays \`weft replay\` stored, which no
               other list shows
${storeFlagsHelp(15)}
  --json       print {"runs":[{"id","workflowId","version","state","inputRevision","createdAt"}]};
               a debug run (weft run --break/--pin) is marked "debug" (--json: "debug":true);
               a run that waits for a daily budget, "waiting for budget" (--json:
               "waitingFor":"budget"; docs/budgets.md)`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, limit: { type: 'string' }, kind: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number of at least 1');
    const kind = values.kind ?? 'run';
    if (kind !== 'run' && kind !== 'replay') throw new UsageError(`--kind takes run or replay, not "${kind}"`);
    return withReadOnlyStore('runs', io, values, async (reader) => {
      const runs = reader.recentRuns(limit, kind);
      if (values.json === true) io.stdout.write(`${JSON.stringify({ runs })}\n`);
      else if (runs.length === 0) io.stdout.write(kind === 'replay' ? 'no replays yet\n' : 'no runs yet\n');
      else for (const r of runs) io.stdout.write(`${r.id}  ${r.workflowId} v${r.version}  ${r.state.padEnd(15)}  rev ${r.inputRevision}  ${r.createdAt}${r.debug === true ? '  debug' : ''}${r.waitingFor === 'budget' ? '  waiting for budget' : ''}\n`);
      return EXIT_OK;
    });
  },
};
