// `weft worker --store URL [--lease-ttl-ms N]`: one of several engines sharing a PostgreSQL store
// (docs/scale-out.md). It claims runs no live engine holds (new runs handed over by
// `weft serve --no-worker`, runs released by commands, the runs of workers that died) and drives
// them. When its lease lapses (the process was stopped, the database was unreachable past the
// ttl) or the database fails, it stops driving, writes nothing more, and registers again under a
// new id once the database answers. SIGTERM or Ctrl-C: it waits for its running attempts, gives
// its runs back, and exits 0.
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { storeName } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';
import { isPgStoreText } from '../../service/store-text.ts';

/** The longest wait between two attempts to register again, while the database does not answer. */
const MAX_BACKOFF_MS = 5_000;

export const workerCommand: Command = {
  name: 'worker',
  summary: 'drive runs of a shared PostgreSQL store, beside other workers',
  usage: 'weft worker --store URL [--lease-ttl-ms N] [--max-runs N]',
  help: `Runs an engine on a PostgreSQL store that other workers share: it claims the runs
no live engine holds (started by weft serve --no-worker, given back by a command,
or left by a worker that died) and drives them. A run is driven by one worker at a
time; a worker that stops heartbeating for --lease-ttl-ms has its runs taken over,
and an attempt it had started is recorded unknown, never run again blindly.

  --store URL          the store: postgres://user@host:5432/database[?schema=NAME]
                       (default $WEFT_STORE)
  --lease-ttl-ms N     how long after its last heartbeat the worker counts as dead
                       (default $WEFT_LEASE_TTL_MS, else 10000; it heartbeats every N/4)
  --max-runs N         claim no more runs while it holds N (default: no bound); runs
                       it gives back while they wait do not count

Prints a line to stderr when it starts, loses its lease or stops. Stop with Ctrl-C
or SIGTERM: it waits for its running attempts, gives its runs back and exits 0.
Exit status: 0 stopped, 2 usage error or a store that cannot be opened at start.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      store: { type: 'string' },
      'lease-ttl-ms': { type: 'string' },
      'max-runs': { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const store = values.store ?? process.env['WEFT_STORE'];
    if (store === undefined || store === '') throw new UsageError('give the store to work on: --store postgres://user@host/database (or set WEFT_STORE)');
    if (!isPgStoreText(store)) {
      throw new UsageError(`weft worker shares a PostgreSQL store with other workers; "${store}" is not a postgres:// URL (a SQLite store has one engine: weft serve, or weft resume)`);
    }
    const ttl = values['lease-ttl-ms'] === undefined ? undefined : Number(values['lease-ttl-ms']);
    if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 200)) throw new UsageError(`--lease-ttl-ms takes a whole number of milliseconds, 200 or more; got "${values['lease-ttl-ms'] ?? ''}"`);
    const maxRuns = values['max-runs'] === undefined ? undefined : Number(values['max-runs']);
    if (maxRuns !== undefined && (!Number.isInteger(maxRuns) || maxRuns < 1)) throw new UsageError(`--max-runs takes a whole number, 1 or more; got "${values['max-runs'] ?? ''}"`);
    return withUserErrors('worker', io, async () => {
      const { openEngineSession } = await import('../../host/engine-host.ts');
      const where = await storeName(store, io.cwd);
      const say = (line: string): void => void io.stderr.write(`weft worker: ${line}\n`);
      let stopping = false;
      let wake: () => void = () => undefined;
      const onSignal = (): void => {
        stopping = true;
        wake();
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        let first = true;
        let backoff = 100;
        while (!stopping) {
          let lost: unknown;
          const stopped = new Promise<void>((r) => (wake = r));
          let session;
          try {
            session = await openEngineSession(store, 'weft worker', 'create', process.env, {
              drain: true,
              onFatal: (e) => {
                lost = e;
                wake();
              },
              shared: { role: 'worker', claim: true, ...(ttl === undefined ? {} : { ttlMs: ttl }), ...(maxRuns === undefined ? {} : { maxRuns }), log: say },
            });
          } catch (e) {
            if (first) throw e; // nothing was ever driven: the store cannot be used (exit 2)
            say(`cannot reach the store yet (${e instanceof Error ? e.message : String(e)}); trying again in ${backoff} ms`);
            await new Promise((r) => setTimeout(r, backoff));
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            continue;
          }
          first = false;
          backoff = 100;
          say(`${session.shared?.workerId ?? ''} is driving runs of ${where}`);
          await stopped;
          await session.close().catch(() => undefined);
          if (lost !== undefined && !stopping) say('registering again');
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      say('stopped');
      return EXIT_OK;
    });
  },
};
