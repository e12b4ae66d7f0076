// An attempt context around a fake agent step, with real template rendering over a small run
// context, for the agent executor's tests.
import type { AttemptContext } from '../../../../engine/executors/executor.ts';
import { expressionsOver } from '../../../../engine/runtime/expressions.ts';
import type { Step } from '../../../../shared/definition/workflow-schema.ts';

export interface AgentContextOptions {
  config: Record<string, unknown>;
  /** The step's resolved input; with `inputExpression` undefined the step declares no `input`. */
  input?: unknown;
  inputExpression?: string;
  runInput?: unknown;
  effect?: 'none' | 'idempotent' | 'external';
  attempt?: number;
  signal?: AbortSignal;
}

export function agentContext(options: AgentContextOptions): AttemptContext {
  const step = { id: 'draft', kind: 'agent', config: options.config } as Step;
  if (options.inputExpression !== undefined) step.input = options.inputExpression;
  if (options.effect !== undefined) step.effect = options.effect;
  const runInput = options.runInput ?? { topic: 'durable workflows' };
  return {
    runId: 'run_1',
    stepId: step.id,
    activation: 1,
    attempt: options.attempt ?? 1,
    input: options.input ?? runInput,
    config: options.config,
    step,
    idempotencyKey: undefined,
    signal: options.signal ?? new AbortController().signal,
    workspaceDir: '/nonexistent-workspace',
    expressions: expressionsOver({ input: runInput, steps: {}, run: { id: 'run_1' } }),
  };
}
