// `weft resume [RUN] [--store URL|PATH | --db PATH] [--json]`: continues unfinished runs after a
// stop or a crash.
import { existsSync } from 'node:fs';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { performOnStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { exitCodeOf, runOutcomeLine } from '../run-outcome.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { isPgStoreText } from '../../service/store-text.ts';
import { UsageError } from '../usage-error.ts';
import { actor } from '../operator.ts';

export const resumeCommand: Command = {
  name: 'resume',
  summary: 'continue unfinished runs (after a stop or a crash)',
  usage: 'weft resume [RUN] [--by NAME] [--reason TEXT] [--store URL|PATH | --db PATH] [--json]',
  help: `Continues RUN, or every unfinished run of the store, from its event log: completed work
is kept; an attempt the stop interrupted is run again if its effect is none or idempotent,
and is marked unknown if it is external (never repeated blindly); overdue timers fire at once.
Waits until the runs end or only waiting work remains. A paused RUN is resumed (recorded with
--by and --reason).

${storeFlagsHelp(20)}
  --json            print {"runId","state"} per run (one line each)

Exit status as for weft run, for the worst run: 1 if any failed, else 3 if any waits, else 0.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' }, by: { type: 'string' }, reason: { type: 'string' } });
    if (positionals.length > 1) throw new UsageError('give at most one run id');
    const [only] = positionals;
    const dbPath = storePath(values, io.cwd);
    return withUserErrors('resume', io, async () => {
      // Every unfinished run of no store file at all: none, and no store is made to say so.
      if (only === undefined && !isPgStoreText(dbPath) && !existsSync(dbPath)) {
        if (values.json !== true) io.stdout.write('no unfinished runs\n');
        return EXIT_OK;
      }
      const [{ checkResume }, { performResume }, { ResumeRunsResult }] = await Promise.all([import('../check-command.ts'), import('../../service/perform-command.ts'), import('../../../shared/api/forwarded-command.ts')]);
      const typed = checkResume({ command: 'resume', ...(only === undefined ? {} : { run: only }), by: actor(values.by), ...(values.reason === undefined ? {} : { reason: values.reason }) });
      const { runs } = await performOnStore(dbPath, 'resume', io, typed, ResumeRunsResult, (service) => performResume(service, typed));
      if (runs.length === 0 && values.json !== true) io.stdout.write('no unfinished runs\n');
      // One write for the whole report: a line per run written apart cost a resume of 1,000 runs
      // a thousand writes.
      let worst = EXIT_OK;
      let report = '';
      for (const { runId, state } of runs) {
        report += runOutcomeLine(runId, state, values.json === true);
        const code = exitCodeOf(state);
        worst = code === 1 || worst === 1 ? 1 : Math.max(worst, code);
      }
      if (report !== '') io.stdout.write(report);
      return worst;
    });
  },
};
