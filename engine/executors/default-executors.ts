// The executors a real engine uses, by step kind. Kinds without one here (http, human, event,
// map, subworkflow) fail their attempts with `unsupported_kind` until they are added.
import type { StepKind } from '../../shared/definition/names.ts';
import { AgentExecutor } from './agent/agent-executor.ts';
import { CommandExecutor } from './command-executor.ts';
import type { Executor } from './executor.ts';
import { HttpExecutor } from './http/http-executor.ts';
import { ScriptExecutor } from './script-executor.ts';

export function defaultExecutors(): Partial<Record<StepKind, Executor>> {
  return { agent: new AgentExecutor(), command: new CommandExecutor(), http: new HttpExecutor(), script: new ScriptExecutor() };
}
