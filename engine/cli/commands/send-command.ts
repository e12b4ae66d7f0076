// `weft send NAME --key K [--id D] [--data JSON|@file]`: an event for runs waiting on it.
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { performOnStore } from '../engine-session.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { readRunInput } from '../run-input.ts';
import { exitCodeOf } from '../run-outcome.ts';
import { UsageError } from '../usage-error.ts';

export const sendCommand: Command = {
  name: 'send',
  summary: 'send an event to the runs that wait (or will wait) for it',
  usage: 'weft send NAME --key KEY [--id ID] [--data JSON|@file] [--store URL|PATH | --db PATH] [--json]',
  help: `Sends event NAME with correlation key KEY. The oldest run whose event step waits for NAME
and KEY receives it and continues; if none waits yet but an unfinished run has an event step for
NAME, the event is kept and matched when that step starts waiting. Only the receiving run is
driven (other runs' due work waits for their own resume), and first any run waiting for an event
an earlier send stored but did not deliver (it was stopped). An event id seen before (--id,
default a new UUID) is ignored and recorded as a duplicate.

${storeFlagsHelp(20)}
  --json            print {"id","status":"delivered"|"kept"|"duplicate","runId"?,"state"?}

Exit status 0, or 2 when no unfinished run has an event step for NAME (nothing is stored then).`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { key: { type: 'string' }, id: { type: 'string' }, data: { type: 'string' }, store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    const [name, ...extra] = positionals;
    if (name === undefined || extra.length > 0) throw new UsageError('give exactly one event name');
    if (values.key === undefined) throw new UsageError('--key KEY is required: the correlation key the waiting step expects');
    const key = values.key;
    const data = values.data === undefined ? null : readRunInput(values.data, io.cwd, '--data');
    const path = storePath(values, io.cwd);
    return withUserErrors('send', io, async () => {
      const [{ checkSend }, { performSend }, { SendEventResult }] = await Promise.all([import('../check-command.ts'), import('../../service/perform-command.ts'), import('../../../shared/api/send-event-command.ts')]);
      const typed = checkSend({ command: 'send', event: { name, key, ...(values.id === undefined ? {} : { id: values.id }), data } });
      const { id, status, runId, state } = await performOnStore(path, 'send', io, typed, SendEventResult, (service) => performSend(service, typed));
      if (values.json === true) io.stdout.write(`${JSON.stringify({ id, status, ...(runId === undefined ? {} : { runId }), ...(state === undefined ? {} : { state }) })}\n`);
      else if (status === 'duplicate') io.stdout.write(`event ${id} was sent before; ignored\n`);
      else if (status === 'kept') io.stdout.write(`event ${id} kept: no run waits for "${name}" with key "${key}" yet\n`);
      else io.stdout.write(`event ${id} delivered to run ${runId ?? ''}: ${state ?? ''}\n`);
      return state === undefined ? EXIT_OK : exitCodeOf(state) === 1 ? 1 : EXIT_OK;
    });
  },
};
