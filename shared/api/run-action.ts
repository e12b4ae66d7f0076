// The body of `POST /api/runs/:id/actions`: one operator command, told apart by `action` (a note
// on the run or a step is one too: note-command.ts).
// The run is the route's :id. Everything an operator can do to a run or one of its steps,
// except a person's task answers, which go to `POST /api/tasks/:runId/:stepId` (task-action.ts).
import { z } from 'zod';
import type { OperatorAction } from '../definition/names.ts';
import { ForkCommand, ReviseCommand, ReviseOutcome, RevisePlan } from './input-commands.ts';
import { CancelCommand, ContinueCommand, PauseCommand, ResumeCommand, StepCommand } from './run-control-commands.ts';
import { NoteCommand } from './note-command.ts';
import { RunOutcome } from './run-outcome.ts';
import { KeepCommand, ResolveCommand, RetryCommand, SkipCommand } from './step-commands.ts';

/** Every `action` the route takes, in the order the docs list them. */
export const RUN_ACTIONS = ['pause', 'resume', 'cancel', 'retry', 'skip', 'resolve', 'keep', 'revise', 'fork', 'continue', 'step', 'note'] as const;
export type RunActionName = (typeof RUN_ACTIONS)[number];

/**
 * One operator action on a run.
 *
 * @example
 * const a = RunAction.parse({ action: 'skip', step: 'lookup', output: { id: 7 }, reason: 'found by hand' });
 * if (a.action === 'skip') a.output; // typed by the discriminant
 */
export const RunAction = z.discriminatedUnion(
  'action',
  [PauseCommand, ResumeCommand, CancelCommand, RetryCommand, SkipCommand, ResolveCommand, KeepCommand, ReviseCommand, ForkCommand, ContinueCommand, StepCommand, NoteCommand],
  { error: (iss) => (iss.code === 'invalid_union' ? `unknown action; give "action" as one of ${RUN_ACTIONS.join(', ')}` : undefined) },
);
export type RunAction = z.infer<typeof RunAction>;

// RUN_ACTIONS and the union name the same actions; a mismatch fails the type check here.
type Unlisted = Exclude<RunAction['action'], RunActionName> | Exclude<RunActionName, RunAction['action']>;
const _everyRunActionListed: [Unlisted] extends [never] ? true : Unlisted = true;

// Every operator action the engine records (operator_action events, `weft pause|...|keep`) is a
// command of the route too; one added to OPERATOR_ACTIONS only fails the type check here.
type NotRoutable = Exclude<OperatorAction, RunActionName>;
const _everyOperatorActionRoutable: [NotRoutable] extends [never] ? true : NotRoutable = true;

/**
 * The answer: the run and its state after the action (for `fork`, the new run; for `revise`,
 * with the plan it acted on), or for a dry-run revision the plan of what it would do.
 */
export const RunActionResult = z.union([RunOutcome, ReviseOutcome, RevisePlan]);
export type RunActionResult = z.infer<typeof RunActionResult>;
