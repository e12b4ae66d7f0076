// A command that changes a store is built and checked here, the same way whether the CLI then
// performs it on a store of its own or sends it to the `weft serve` that owns the store. The part
// the service parses is parsed first in the service's own words (so a blank --by reads "the
// action: $.by: …" as it always has, with its flag), then the whole command with its shared/api
// schema. A command that fails, fails with the same message either way, before any store is opened.
import type { z } from 'zod';
import { ActCommand, AnswerCommand, ResumeRunsCommand, RunDefinitionCommand, SendCommand } from '../../shared/api/forwarded-command.ts';
import { RunAction } from '../../shared/api/run-action.ts';
import { SendEventCommand } from '../../shared/api/send-event-command.ts';
import { StartRunCommand } from '../../shared/api/start-run-command.ts';
import { TaskAction } from '../../shared/api/task-action.ts';
import { parseCommand } from '../service/parse-command.ts';

const WHAT = 'the command';

/** `weft run`: the key, priority and budget as the service's startChecked reads them, then the command. */
export function checkRun(c: z.input<typeof RunDefinitionCommand>): RunDefinitionCommand {
  parseCommand(StartRunCommand.pick({ key: true, priority: true, budget: true }), { key: c.key, priority: c.priority, budget: c.budget }, 'the request');
  return parseCommand(RunDefinitionCommand, c, WHAT);
}

/** An operator action (pause … step, revise, fork). */
export function checkAct(c: z.input<typeof ActCommand>): ActCommand {
  parseCommand(RunAction, c.action, 'the action');
  return parseCommand(ActCommand, c, WHAT);
}

/** approve, reject, reassign. */
export function checkAnswer(c: z.input<typeof AnswerCommand>): AnswerCommand {
  parseCommand(TaskAction, c.answer, 'the answer');
  return parseCommand(AnswerCommand, c, WHAT);
}

/** weft send. */
export function checkSend(c: z.input<typeof SendCommand>): SendCommand {
  parseCommand(SendEventCommand, c.event, 'the event');
  return parseCommand(SendCommand, c, WHAT);
}

/** weft resume. */
export function checkResume(c: z.input<typeof ResumeRunsCommand>): ResumeRunsCommand {
  return parseCommand(ResumeRunsCommand, c, WHAT);
}
