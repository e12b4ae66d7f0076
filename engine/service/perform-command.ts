// A terminal's command that changes a store (shared/api/forwarded-command.ts), performed on an
// EngineService: what `weft run|send|approve|…|resume` do on a store they hold themselves, and
// what `POST /api/commands` does for them on the store a `weft serve` owns. Each acts through the
// service, then waits until the runs it drove have settled (ended, or only waiting work left) and
// answers their state then, which the CLI prints. One code path for both, so a command's effect
// and its answer are the same wherever it runs.
import { ForwardedCommand, type ActCommand, type AnswerCommand, type ResumeRunsCommand, type ResumeRunsResult, type RunDefinitionCommand, type SendCommand } from '../../shared/api/forwarded-command.ts';
import type { RunActionResult } from '../../shared/api/run-action.ts';
import type { RunOutcome } from '../../shared/api/run-outcome.ts';
import type { SendEventResult } from '../../shared/api/send-event-command.ts';
import type { EngineService } from './engine-service.ts';
import { parseCommand, type CommandInput } from './parse-command.ts';

/** `weft run` of a definition sent as content (the server's side; alone, `weft run` knows its file's folder). */
export async function performRun(service: EngineService, c: RunDefinitionCommand): Promise<RunOutcome> {
  const { runId } = await service.startDefinition(c);
  return { runId, state: await service.settled(runId) };
}

/** An operator action on a run; a dry-run revision answers its plan and changes nothing. */
export async function performAct(service: EngineService, c: ActCommand): Promise<RunActionResult> {
  const answer = await service.act(c.run, c.action);
  if ('dryRun' in answer) return answer;
  return { ...answer, state: await service.settled(answer.runId) };
}

/** A person's answer to a task. */
export async function performAnswer(service: EngineService, c: AnswerCommand): Promise<RunOutcome> {
  const { runId } = await service.decide(c.run, c.step, c.answer);
  return { runId, state: await service.settled(runId) };
}

/** An event; the run that received it, if one did, is answered once settled. */
export async function performSend(service: EngineService, c: SendCommand): Promise<SendEventResult> {
  const { id, status, runId } = await service.sendEvent(c.event);
  if (runId === undefined) return { id, status };
  return { id, status, runId, state: await service.settled(runId) };
}

/** RUN, or every unfinished run of the store, driven on; each answered once settled, in order. */
export async function performResume(service: EngineService, c: ResumeRunsCommand): Promise<ResumeRunsResult> {
  const ids = await service.resume(c.run, { by: c.by, reason: c.reason });
  const runs: RunOutcome[] = [];
  for (const runId of ids) runs.push({ runId, state: await service.settled(runId) });
  return { runs };
}

/** Any of them, by its `command`, parsed here (a request's body comes unparsed from the server). */
export function performCommand(service: EngineService, command: CommandInput<typeof ForwardedCommand>): Promise<RunOutcome | RunActionResult | SendEventResult | ResumeRunsResult> {
  const c = parseCommand(ForwardedCommand, command, 'the command');
  switch (c.command) {
    case 'run':
      return performRun(service, c);
    case 'act':
      return performAct(service, c);
    case 'answer':
      return performAnswer(service, c);
    case 'send':
      return performSend(service, c);
    case 'resume':
      return performResume(service, c);
  }
}
