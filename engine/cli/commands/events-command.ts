// `weft events RUN [--db PATH] [--json]`: the run's event log, every transition with its reason.
import type { Command } from '../command.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';

export const eventsCommand: Command = {
  name: 'events',
  summary: "print a run's event log",
  usage: 'weft events RUN [--db PATH] [--json]',
  help: `Prints every event of RUN in order: sequence number, time, type, step/activation.attempt,
reason, and data.

  --json   print {"events":[{"seq","at","type","step","activation","attempt","data","reason"}]}`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { db: { type: 'string' }, json: { type: 'boolean' } });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    return withReadOnlyStore('events', io, values.db, async (store) => {
      const events = store.readEvents(store.resolveRunId(run)).map((e) => ({ ...e, at: new Date(e.at).toISOString() }));
      if (values.json === true) {
        io.stdout.write(`${JSON.stringify({ events: events.map(({ runId: _r, ...rest }) => rest) })}\n`);
      } else {
        for (const e of events) {
          const where = e.step === null ? '' : ` ${e.step}${e.activation === null ? '' : `/${e.activation}${e.attempt === null ? '' : `.${e.attempt}`}`}`;
          io.stdout.write(`${String(e.seq).padStart(4)} ${e.at} ${e.type}${where}${e.reason === null ? '' : `: ${e.reason}`}\n`);
        }
      }
      return EXIT_OK;
    });
  },
};
