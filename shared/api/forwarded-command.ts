// The `weft` commands that change a store, as typed data: what a terminal sends to the `weft
// serve` that owns its store (`POST /api/commands`), one discriminated union of the API's own
// command schemas. A command carries content only: the workflow definition as the text of its
// file, inputs as JSON values. It names no path, working folder, store or command line; the CLI
// reads its files itself, with the user's permissions, and the server acts on its own store. The
// answer comes once the runs the command drove have settled (ended, or only waiting work left),
// with their state then: what the CLI prints, as it prints the command run alone.
import { z } from 'zod';
import { RunOutcome } from './run-outcome.ts';
import { RunAction, RunActionResult } from './run-action.ts';
import { SendEventCommand, SendEventResult } from './send-event-command.ts';
import { StartRunCommand } from './start-run-command.ts';
import { TaskAction } from './task-action.ts';

/**
 * Longest run or step reference, `by` or `reason` a command carries where the engine checks it,
 * as `weft` takes them from its command line: the longest single argument Linux passes to a
 * program (MAX_ARG_STRLEN, 128 KiB), so a command fails the same way sent or not (an unknown run
 * of 50,000 characters is an unknown run, named in short, either way).
 */
export const MAX_REF_LENGTH = 131_072;

/** Longest definition text: a workflow file of 16 MiB, as `weft run` reads at most. */
export const MAX_DEFINITION_TEXT = 16 * 1024 * 1024;

const Ref = z.string().max(MAX_REF_LENGTH, `at most ${MAX_REF_LENGTH} characters`);

/**
 * `weft run FILE`: a run of the workflow whose definition is `definition`, the text of the file.
 * A server runs it from the folder of its own workspace file with that content, if it has one;
 * otherwise only a workflow that reads nothing from a folder (no script, command, subworkflow or
 * map step) runs, since a server never takes a folder from a request.
 *
 * @example
 * RunDefinitionCommand.parse({ command: 'run', definition: '{"format": "weft/v1", …}', input: { orderId: 'A17' }, key: 'A17' });
 */
export const RunDefinitionCommand = StartRunCommand.omit({ workflow: true, version: true }).extend({
  command: z.literal('run'),
  definition: z.string().min(1, 'give the workflow definition, as the text of its file').max(MAX_DEFINITION_TEXT, `a definition is at most ${MAX_DEFINITION_TEXT} characters`),
});
export type RunDefinitionCommand = z.infer<typeof RunDefinitionCommand>;

/** `weft pause|resume RUN|cancel|retry|skip|resolve|keep|revise|fork|continue|step`: one RunAction on RUN (an id or a unique prefix). */
export const ActCommand = z.strictObject({ command: z.literal('act'), run: Ref, action: RunAction });
export type ActCommand = z.infer<typeof ActCommand>;

/** `weft approve|reject|reassign RUN STEP`: a person's answer to the task of STEP. */
export const AnswerCommand = z.strictObject({ command: z.literal('answer'), run: Ref, step: Ref, answer: TaskAction });
export type AnswerCommand = z.infer<typeof AnswerCommand>;

/** `weft send NAME --key KEY`: an event for the run that waits (or will wait) for it. */
export const SendCommand = z.strictObject({ command: z.literal('send'), event: SendEventCommand });
export type SendCommand = z.infer<typeof SendCommand>;

/**
 * `weft resume [RUN]`: continues RUN (resuming it, by `by` for `reason`, when it is paused), or
 * every unfinished run of the store.
 */
export const ResumeRunsCommand = z.strictObject({ command: z.literal('resume'), run: Ref.optional(), by: Ref.optional(), reason: Ref.optional() });
export type ResumeRunsCommand = z.infer<typeof ResumeRunsCommand>;

/** Every `command` the route takes. */
export const FORWARDED_COMMANDS = ['run', 'act', 'answer', 'send', 'resume'] as const;
export type ForwardedCommandName = (typeof FORWARDED_COMMANDS)[number];

/**
 * One terminal command for the store's owner, told apart by `command`.
 *
 * @example
 * ForwardedCommand.parse({ command: 'act', run: 'rmx4k5mb', action: { action: 'cancel', by: 'ana', reason: 'not needed' } });
 */
export const ForwardedCommand = z.discriminatedUnion('command', [RunDefinitionCommand, ActCommand, AnswerCommand, SendCommand, ResumeRunsCommand], {
  error: (iss) => (iss.code === 'invalid_union' ? `unknown command; give "command" as one of ${FORWARDED_COMMANDS.join(', ')}` : undefined),
});
export type ForwardedCommand = z.infer<typeof ForwardedCommand>;

/** The answer to `resume`: each run it drove, in the store's order, with its state once settled. */
export const ResumeRunsResult = z.strictObject({ runs: z.array(RunOutcome) });
export type ResumeRunsResult = z.infer<typeof ResumeRunsResult>;

/**
 * The answer to each command, once the runs it drove have settled: `run` and `answer` the run's
 * outcome, `act` a RunActionResult (a fork's new run; a revision with its plan; for a dry-run
 * revision the plan only), `send` what became of the event, `resume` every run it drove.
 */
export const FORWARDED_ANSWERS = {
  run: RunOutcome,
  act: RunActionResult,
  answer: RunOutcome,
  send: SendEventResult,
  resume: ResumeRunsResult,
} as const satisfies Record<ForwardedCommandName, z.ZodType>;

// FORWARDED_COMMANDS and the union name the same commands; a mismatch fails the type check here.
type Unlisted = Exclude<ForwardedCommand['command'], ForwardedCommandName> | Exclude<ForwardedCommandName, ForwardedCommand['command']>;
const _everyCommandListed: [Unlisted] extends [never] ? true : Unlisted = true;
