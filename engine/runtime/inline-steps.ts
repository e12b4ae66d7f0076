// The pure step kinds (route `inline` in shared/definition/step-kinds.ts: transform, router, join,
// end): their result is a function of the run's expression context, so the scheduler runs them
// inside a tick and a revision plan can compute what they will give under a new input. One run
// per inline kind: a kind routed inline without one here does not compile.
import type { InlineKind } from '../../shared/definition/step-kinds.ts';
import { runsInline } from '../../shared/definition/step-kinds.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult } from '../executors/executor.ts';
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import { evaluate } from './expressions.ts';
import type { RunModel } from '../../shared/run/run-model.ts';

interface InlineCall {
  step: Step;
  input: unknown;
  config: Record<string, unknown>;
  ctx: Record<string, unknown>;
  index: DefinitionIndex;
  edges: RunModel['edges'];
  view: Readonly<Record<string, { output: unknown }>>;
}

const passInput = async ({ input }: InlineCall): Promise<AttemptResult> => ({ outcome: 'succeeded', output: input ?? null });

const INLINE_RUNS: { [K in InlineKind]: (call: InlineCall) => Promise<AttemptResult> } = {
  transform: async ({ config, ctx }) => {
    try {
      return { outcome: 'succeeded', output: (await evaluate(String(config['expression']), ctx)) ?? null };
    } catch (e) {
      return { outcome: 'failed', code: 'expression_error', message: (e as Error).message, retryable: false };
    }
  },
  join: async ({ step, index, edges, view }) => {
    const out: Record<string, unknown> = {};
    for (const e of index.in.get(step.id) ?? []) {
      if (edges.get(e.edge.id)?.taken) out[e.edge.from] = view[e.edge.from]?.output ?? null;
    }
    return { outcome: 'succeeded', output: out };
  },
  router: passInput,
  end: passInput,
};

/** The result of a pure step: `ctx` is the run's expression context, `edges` and `view` the run's edge decisions and outputs. */
export function runInlineStep(
  step: Step,
  input: unknown,
  config: Record<string, unknown>,
  ctx: Record<string, unknown>,
  index: DefinitionIndex,
  edges: RunModel['edges'],
  view: Readonly<Record<string, { output: unknown }>>,
): Promise<AttemptResult> {
  const run = runsInline(step.kind) ? INLINE_RUNS[step.kind] : passInput;
  return run({ step, input, config, ctx, index, edges, view });
}
