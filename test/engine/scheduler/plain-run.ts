// Plain data for the scheduler's pure decision modules: a workflow validated like the CLI does,
// its run model as a new run has it, and its definition index. Tests set step fields directly,
// as the fold would, and ask a module for its decision; no engine, store or clock is involved.
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { indexDefinition, type DefinitionIndex } from '../../../shared/run/definition-index.ts';
import { newRunModel, type AttemptRecord, type RunModel, type StepRuntime } from '../../../shared/run/run-model.ts';
import { parseWorkflow, wf } from '../harness.ts';

export interface PlainRun {
  workflow: Workflow;
  run: RunModel;
  index: DefinitionIndex;
  /** The step runtime of `id` (the test fails if there is none). */
  s(id: string): StepRuntime;
  /** The step definition of `id`. */
  step(id: string): Workflow['steps'][number];
}

export function plainRun(steps: unknown[], edges: unknown[], extra: Record<string, unknown> = {}): PlainRun {
  const workflow = parseWorkflow(wf('plain', steps, edges, extra));
  const run = newRunModel('r-plain', workflow);
  const index = indexDefinition(workflow);
  return {
    workflow,
    run,
    index,
    s(id) {
      const s = run.steps.get(id);
      if (s === undefined) throw new Error(`no step ${id}`);
      return s;
    },
    step(id) {
      const step = index.steps.get(id);
      if (step === undefined) throw new Error(`no step ${id}`);
      return step;
    },
  };
}

export function attempt(fields: Partial<AttemptRecord> & { number: number }): AttemptRecord {
  return {
    activation: 1,
    state: 'failed',
    startedAt: 0,
    endedAt: 1,
    inputHash: 'h',
    input: null,
    variant: null,
    effect: 'none',
    idempotencyKey: undefined,
    timeoutMs: undefined,
    error: null,
    evidenceId: null,
    retryAfterMs: undefined,
    output: undefined,
    meta: undefined,
    queuedAt: null,
    ...fields,
  };
}
