// How a command reaches the engine: always through the service (engine/service/), over an engine
// that the host (engine/host/) opens under the store's lease, both loaded when the command runs,
// so `weft --version` and `weft validate` never load the engine or SQLite. A command
// that changes runs is a typed command (shared/api/forwarded-command.ts), checked where it is built
// (check-command.ts) and performed by the `weft serve` that owns the store if one runs
// (store-owner.ts), else here under the store's lease: the same service code either way
// (engine/service/perform-command.ts), so it prints the same. One that only reads gets a RunReader
// over the store opened read-only. The user's mistakes (no store, an unknown run, a refused
// action) exit 2 with their message.
import type { RunAction } from '../../shared/api/run-action.ts';
import type { RebillEstimate, RebillQuery } from '../../shared/cost/rebill-estimate.ts';
import { rebillLine } from '../../shared/cost/rebill.ts';
import type { TaskAction } from '../../shared/api/task-action.ts';
import type { ForwardedCommand } from '../../shared/api/forwarded-command.ts';
import type { z } from 'zod';
import type { EngineService } from '../service/engine-service.ts';
import type { SessionMode } from '../host/engine-host.ts';
import type { RunReader } from '../service/run-reader.ts';
import type { CliIo } from './cli-io.ts';
import { oneLine, withUserErrors } from './cli-errors.ts';
import { printRunOutcome } from './run-outcome.ts';
import { storePath, type StoreFlags } from './store-path.ts';

/**
 * A read-only command's body with a reader over the store of --store or --db (storePath: or
 * $WEFT_STORE, $WEFT_DB, the workspace's). A store whose log does not read as weft's is read all the same, with a warning
 * naming the damaged run after the command's output.
 */
export function withReadOnlyStore(command: string, io: CliIo, flags: StoreFlags, body: (reader: RunReader) => number | Promise<number>): Promise<number> {
  const path = storePath(flags, io.cwd);
  return withUserErrors(command, io, async () => {
    const { withRunReader } = await import('../service/read-only-store.ts');
    return withRunReader(path, body, (damage) => io.stderr.write(`weft ${command}: warning: ${oneLine(damage)}; commands that write refuse this store until it is restored from a backup\n`));
  });
}

/** The body with an EngineService over the store at `dbPath` (as storePath chose it: a resolved path or a URL), under its lease. */
export async function withServiceAt<T>(dbPath: string, command: string, io: CliIo, body: (service: EngineService) => Promise<T>, mode: SessionMode = 'write'): Promise<T> {
  const { withEngineService } = await import('../host/engine-host.ts');
  return withEngineService(dbPath, `weft ${command}`, { workspace: io.cwd }, body, mode);
}

/**
 * Performs a checked command on the store at `dbPath` (already resolved, by storePath: the one
 * function that decides a command's store): by the `weft serve` that owns that store, if one
 * runs, whose answer is parsed with `answer`; else here, under the store's lease, with `here`.
 */
export function performOnStore<S extends z.ZodType>(
  dbPath: string,
  command: string,
  io: CliIo,
  typed: ForwardedCommand,
  answer: S,
  here: (service: EngineService) => Promise<z.infer<S>>,
  mode: SessionMode = 'write',
): Promise<z.infer<S>> {
  return postOnStore(dbPath, command, io, () => ({ path: '/api/commands', body: typed }), answer, here, mode);
}

/**
 * As performOnStore, for a command the server takes on a route of its own (`weft artifact open`:
 * POST /api/runs/:id/artifact): `request` makes what the owner is sent (only when there is one),
 * `here` is what runs when no server owns the store, or the one there was gone before it took the
 * request.
 */
export async function postOnStore<S extends z.ZodType>(
  dbPath: string,
  command: string,
  io: CliIo,
  request: () => OwnerRequest | Promise<OwnerRequest>,
  answer: S,
  here: (service: EngineService) => Promise<z.infer<S>>,
  mode: SessionMode = 'write',
): Promise<z.infer<S>> {
  const { storeOwner } = await import('./store-owner.ts');
  const owner = await storeOwner(dbPath);
  if (owner === undefined) return withServiceAt(dbPath, command, io, here, mode);
  const { path, body } = await request();
  const sent = await owner.post(path, body, answer);
  if (sent.answered) return sent.value;
  return withServiceAt(dbPath, command, io, here, mode);
}

/** A POST to the store's owner: its route and its JSON body. */
export interface OwnerRequest {
  path: `/api/${string}`;
  body: unknown;
}

/**
 * A command that acts on one run (pause, retry, keep, …): resolve RUN (an id or a unique prefix),
 * act through the service, let the engine settle, and print the run's outcome.
 */
export function actOnRun(command: string, io: CliIo, flags: StoreFlags, json: boolean, run: string, action: z.input<typeof RunAction>, rebill?: RebillQuery): Promise<number> {
  const path = storePath(flags, io.cwd);
  return withUserErrors(command, io, async () => {
    const [{ checkAct }, { performAct }, { RunActionResult }] = await Promise.all([import('./check-command.ts'), import('../service/perform-command.ts'), import('../../shared/api/run-action.ts')]);
    const typed = checkAct({ command: 'act', run, action });
    // What the act will bill again is said before it acts (docs/runs.md, "Billed again").
    const estimate = rebill === undefined ? undefined : await rebillBefore(path, run, rebill);
    if (estimate !== undefined && !json) io.stdout.write(`${rebillLine(estimate)}\n`);
    const { runId, state } = await performOnStore(path, command, io, typed, RunActionResult, (service) => performAct(service, typed));
    return printRunOutcome(io, runId, state, json, estimate === undefined ? {} : { rebill: estimate });
  });
}

/**
 * The estimate of what acting on `run` will bill again, read from the store opened read-only; none
 * when it cannot be made (an unknown run or step, a refused fork): the act itself then says why.
 */
async function rebillBefore(path: string, run: string, query: RebillQuery): Promise<RebillEstimate | undefined> {
  try {
    const { withRunReader } = await import('../service/read-only-store.ts');
    return await withRunReader(path, (reader) => reader.rebill(reader.resolveRunId(run), query));
  } catch {
    return undefined;
  }
}

/** A person's answer to a task (approve, reject, reassign), as actOnRun does for operator actions. */
export function answerTask(command: string, io: CliIo, flags: StoreFlags, json: boolean, run: string, step: string, answer: z.input<typeof TaskAction>): Promise<number> {
  const path = storePath(flags, io.cwd);
  return withUserErrors(command, io, async () => {
    const [{ checkAnswer }, { performAnswer }, { RunOutcome }] = await Promise.all([import('./check-command.ts'), import('../service/perform-command.ts'), import('../../shared/api/run-outcome.ts')]);
    const typed = checkAnswer({ command: 'answer', run, step, answer });
    const { runId, state } = await performOnStore(path, command, io, typed, RunOutcome, (service) => performAnswer(service, typed));
    return printRunOutcome(io, runId, state, json);
  });
}
