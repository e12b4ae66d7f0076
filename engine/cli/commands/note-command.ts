// `weft note RUN [STEP] TEXT`: an operator's note on a run or one of its steps, recorded in the
// run's log (`note_added`) in any run state, settled runs included. It goes through the same
// typed action as pause or retry (shared/api/note-command.ts), so a `weft serve` that owns the
// store records it; it changes nothing but the record, so it exits 0 whatever state the run is in.
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { performOnStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { actor } from '../operator.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

export const noteCommand: Command = {
  name: 'note',
  summary: 'attach a note to a run or one of its steps (kept in its log, shown on its timeline)',
  usage: 'weft note RUN [STEP] TEXT [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Records TEXT as a note on RUN, or on its step STEP, with who wrote it (--by, default
$WEFT_USER, else $USER). A note is an event of the run (note_added): weft inspect lists it, the
app shows it on the timeline. Any run takes one, a settled run too; nothing else changes.
Quote TEXT as one argument; it may not be blank and is at most 4000 characters.

${storeFlagsHelp(20)}
  --json            print {"runId","state","step","text","by"}

Exit status 0; 2 when the run or step is unknown or TEXT is blank or too long (nothing is written).`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { by: { type: 'string' }, store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals.length < 2 || positionals.length > 3) throw new UsageError('give RUN, optionally STEP, and the note TEXT (quoted, as one argument)');
    const [run, step, text] = positionals.length === 3 ? positionals : [positionals[0], undefined, positionals[1]];
    const by = actor(values.by);
    const path = storePath(values, io.cwd);
    return withUserErrors('note', io, async () => {
      const [{ checkAct }, { performAct }, { RunActionResult }] = await Promise.all([import('../check-command.ts'), import('../../service/perform-command.ts'), import('../../../shared/api/run-action.ts')]);
      const typed = checkAct({ command: 'act', run: run as string, action: { action: 'note', ...(step === undefined ? {} : { step }), text: text as string, by } });
      const answer = await performOnStore(path, 'note', io, typed, RunActionResult, (service) => performAct(service, typed));
      const runId = 'runId' in answer ? answer.runId : (run as string);
      const state = 'state' in answer ? answer.state : undefined;
      if (values.json === true) io.stdout.write(`${JSON.stringify({ runId, state, step: step ?? null, text, by })}\n`);
      else io.stdout.write(`note added to ${step === undefined ? '' : `step "${step}" of `}run ${runId} by ${by}\n`);
      return EXIT_OK;
    });
  },
};
