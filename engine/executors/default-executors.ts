// The executors a real engine uses: one for each kind the step-kind registry routes to an executor
// (shared/definition/step-kinds.ts), or this does not compile. An engine given no executor for a
// kind (a test's) fails that kind's attempts with `unsupported_kind`.
import type { ExecutorKind } from '../../shared/definition/step-kinds.ts';
import { AgentExecutor } from './agent/agent-executor.ts';
import { CommandExecutor } from './command-executor.ts';
import type { Executor } from './executor.ts';
import { HttpExecutor } from './http/http-executor.ts';
import { ScriptExecutor } from './script-executor.ts';

export function defaultExecutors(): { [K in ExecutorKind]: Executor } {
  return { agent: new AgentExecutor(), command: new CommandExecutor(), http: new HttpExecutor(), script: new ScriptExecutor() };
}
