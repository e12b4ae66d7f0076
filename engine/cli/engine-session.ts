// How a command reaches the engine: always through the service (engine/service/), loaded when the
// command runs, so `weft --version` and `weft validate` never load the engine or SQLite. A command
// that changes runs gets an EngineService under the store's lease; one that only reads gets a
// RunReader over the store opened read-only. The user's mistakes (no store, an unknown run, a
// refused action) exit 2 with their message.
import type { RunAction } from '../../shared/api/run-action.ts';
import type { z } from 'zod';
import type { EngineService } from '../service/engine-service.ts';
import type { SessionMode } from '../service/engine-session.ts';
import type { RunReader } from '../service/run-reader.ts';
import type { CliIo } from './cli-io.ts';
import { oneLine, withUserErrors } from './cli-errors.ts';
import { actor } from './operator.ts';
import { printRunOutcome } from './run-outcome.ts';
import { storePath } from './store-path.ts';

/**
 * A read-only command's body with a reader over the store of --db (or $WEFT_DB, or the
 * workspace's). A store whose log does not read as weft's is read all the same, with a warning
 * naming the damaged run after the command's output.
 */
export function withReadOnlyStore(command: string, io: CliIo, db: string | undefined, body: (reader: RunReader) => number | Promise<number>): Promise<number> {
  const path = storePath(db, io.cwd);
  return withUserErrors(command, io, async () => {
    const { withRunReader } = await import('../service/engine-session.ts');
    return withRunReader(path, body, (damage) => io.stderr.write(`weft ${command}: warning: ${oneLine(damage)}; commands that write refuse this store until it is restored from a backup\n`));
  });
}

/** The body with an EngineService over the store at `dbPath` (a path already resolved), under its lease. */
export async function withServiceAt<T>(dbPath: string, command: string, io: CliIo, body: (service: EngineService) => Promise<T>, mode: SessionMode = 'write'): Promise<T> {
  const { withEngineService } = await import('../service/engine-session.ts');
  return withEngineService(dbPath, `weft ${command}`, { workspace: io.cwd, actor: actor(undefined) }, body, mode);
}

/** A command that changes runs, under the store's lease, with its user errors printed. */
export function withService(command: string, io: CliIo, db: string | undefined, body: (service: EngineService) => Promise<number>): Promise<number> {
  const path = storePath(db, io.cwd);
  return withUserErrors(command, io, () => withServiceAt(path, command, io, body));
}

/**
 * A command that acts on one run (pause, retry, keep, …): under the store's lease, resolve RUN
 * (an id or a unique prefix), act through the service, let the engine settle, and print the run's
 * outcome.
 */
export function actOnRun(command: string, io: CliIo, db: string | undefined, json: boolean, run: string, action: z.input<typeof RunAction>): Promise<number> {
  return withService(command, io, db, async (service) => {
    const { runId } = await service.act(run, action);
    return printRunOutcome(io, runId, await service.settled(runId), json);
  });
}

/** A person's answer to a task (approve, reject, reassign), as actOnRun does for operator actions. */
export function answerTask(command: string, io: CliIo, db: string | undefined, json: boolean, run: string, step: string, answer: Parameters<EngineService['decide']>[2]): Promise<number> {
  return withService(command, io, db, async (service) => {
    const { runId } = await service.decide(run, step, answer);
    return printRunOutcome(io, runId, await service.settled(runId), json);
  });
}
