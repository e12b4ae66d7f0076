// `weft events RUN [--after SEQ] [--limit N] [--follow] [--store URL|PATH | --db PATH] [--json]`:
// the run's event log, every transition with its reason; a page of it; or the log as it is written.
import type { RunEvent } from '../../../shared/events/run-event.ts';
import type { CliIo } from '../cli-io.ts';
import type { Command } from '../command.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { exitCodeOf } from '../run-outcome.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

export const eventsCommand: Command = {
  name: 'events',
  summary: "print a run's event log",
  usage: 'weft events RUN [--after SEQ] [--limit N] [--follow] [--store URL|PATH | --db PATH] [--json]',
  help: `Prints every event of RUN in order: sequence number, time, type, step/activation.attempt,
reason, and data.

  --after SEQ  only the events after sequence number SEQ
  --limit N    at most N events; when more follow, says so on stderr ("more events: weft events
               RUN --after S --limit N"), so pages printed one after another join to the whole log
  --follow     print the events as they are committed, by any process, until the run ends;
               exits with the run's code: 0 succeeded, 1 failed or cancelled (a waiting or
               paused run is followed on). Reads the store only, every 0.1 s
${storeFlagsHelp(15)}
  --json       print {"events":[{"seq","at","type","step","activation","attempt","data","reason"}]};
               with --limit, {"events":[…],"next":S}: S is the --after of the next page, or null
               when this page reaches the end of the log; with --follow, one event object per line`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      store: { type: 'string' },
      db: { type: 'string' },
      json: { type: 'boolean' },
      after: { type: 'string' },
      limit: { type: 'string' },
      follow: { type: 'boolean' },
    });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    const after = values.after === undefined ? 0 : wholeNumber('--after', values.after, 0);
    const limit = values.limit === undefined ? undefined : wholeNumber('--limit', values.limit, 1);
    if (values.follow === true && limit !== undefined) throw new UsageError('--follow prints until the run ends; give --limit without --follow');
    const json = values.json === true;
    return withReadOnlyStore('events', io, values, async (reader) => {
      if (values.follow === true) {
        const print = (e: RunEvent): void => void io.stdout.write(json ? `${JSON.stringify(printable(e))}\n` : line(e));
        return exitCodeOf(await reader.followEvents(reader.resolveRunId(run), after, print));
      }
      const { runId, events, next } = reader.eventPage(run, after, limit);
      if (json) {
        const body = { events: events.map(printable), ...(limit === undefined ? {} : { next }) };
        io.stdout.write(`${JSON.stringify(body)}\n`);
      } else {
        for (const e of events) io.stdout.write(line(e));
        if (next !== null && limit !== undefined) moreHint(io, runId, next, limit);
      }
      return EXIT_OK;
    });
  },
};

/** An event as `weft events --json` prints it: the run id is the command's argument, times are ISO. */
function printable({ runId: _runId, ...e }: RunEvent): Omit<RunEvent, 'runId' | 'at'> & { at: string } {
  return { ...e, at: new Date(e.at).toISOString() };
}

function line(e: RunEvent): string {
  const where = e.step === null ? '' : ` ${e.step}${e.activation === null ? '' : `/${e.activation}${e.attempt === null ? '' : `.${e.attempt}`}`}`;
  const pinned = 'pinned' in e.data && e.data.pinned === true ? ' [pinned]' : '';
  return `${String(e.seq).padStart(4)} ${new Date(e.at).toISOString()} ${e.type}${where}${pinned}${e.reason === null ? '' : `: ${e.reason}`}\n`;
}

/** On stderr, so that the stdout of consecutive pages joins to the whole log. */
function moreHint(io: CliIo, runId: string, next: number, limit: number): void {
  io.stderr.write(`more events: weft events ${runId} --after ${next} --limit ${limit}\n`);
}

function wholeNumber(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, not "${text}"`);
  return n;
}
