// The executors a real engine uses, by step kind. Kinds without one here (agent, http, human,
// event, map, subworkflow) fail their attempts with `unsupported_kind` until they are added.
import type { StepKind } from '../../shared/definition/names.ts';
import { CommandExecutor } from './command-executor.ts';
import type { Executor } from './executor.ts';
import { ScriptExecutor } from './script-executor.ts';

export function defaultExecutors(): Partial<Record<StepKind, Executor>> {
  return { command: new CommandExecutor(), script: new ScriptExecutor() };
}
