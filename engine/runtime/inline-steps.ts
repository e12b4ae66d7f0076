// The pure step kinds (transform, router, join, end): their result is a function of the run's
// expression context, so the scheduler runs them inside a tick and a revision plan can compute
// what they will give under a new input.
import type { StepKind } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult } from '../executors/executor.ts';
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import { evaluate } from './expressions.ts';
import type { RunModel } from '../../shared/run/run-model.ts';

export const INLINE_KINDS: ReadonlySet<StepKind> = new Set<StepKind>(['transform', 'router', 'join', 'end']);

/** The result of a pure step: `ctx` is the run's expression context, `edges` and `view` the run's edge decisions and outputs. */
export async function runInlineStep(
  step: Step,
  input: unknown,
  config: Record<string, unknown>,
  ctx: Record<string, unknown>,
  index: DefinitionIndex,
  edges: RunModel['edges'],
  view: Readonly<Record<string, { output: unknown }>>,
): Promise<AttemptResult> {
  switch (step.kind) {
    case 'transform':
      try {
        return { outcome: 'succeeded', output: (await evaluate(String(config['expression']), ctx)) ?? null };
      } catch (e) {
        return { outcome: 'failed', code: 'expression_error', message: (e as Error).message, retryable: false };
      }
    case 'join': {
      const out: Record<string, unknown> = {};
      for (const e of index.in.get(step.id) ?? []) {
        if (edges.get(e.edge.id)?.taken) out[e.edge.from] = view[e.edge.from]?.output ?? null;
      }
      return { outcome: 'succeeded', output: out };
    }
    default:
      return { outcome: 'succeeded', output: input ?? null };
  }
}
