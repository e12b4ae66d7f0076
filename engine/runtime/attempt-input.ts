// An attempt's input twice over (docs/long-running.md, "Large and sensitive data by reference"):
// the value its executor is given, read through every artifact reference the step may read, and
// the value its attempt_started event records. The record keeps references where the input only
// passes a referenced value on (the usual `{ "card": steps.lookup.output.card }`); where the
// step's expression computed something from a sensitive value, the whole input is recorded as one
// sensitive reference, and from large values, as a reference when it is over the threshold. So
// no sensitive value reaches the log through an input, whatever the expression does with it.
import type { ArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { StepRuntime } from '../../shared/run/run-model.ts';
import { externalise } from '../artifacts/externalise.ts';
import { resolveAll } from '../artifacts/read-through.ts';
import { hashOf } from '../store/canonical-json.ts';
import { inputSource } from './attempt-plan.ts';
import { withHandoff } from './handoff-input.ts';
import { evaluate } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import type { RunPort } from './run-port.ts';

export interface AttemptInput {
  /** What the executor (or handler, or inline step) is given. */
  input: unknown;
  /** What attempt_started records. */
  recorded: unknown;
}

/**
 * The input of the step's next attempt. Throws what evaluating the step's input expression throws
 * (the caller records it as the attempt's input error).
 *
 * @example
 * const { input, recorded } = await attemptInput(port, live, s, step);
 */
export async function attemptInput(port: RunPort, live: LiveRun, s: StepRuntime, step: Step): Promise<AttemptInput> {
  const m = live.model;
  const store = port.artifacts.store;
  const reads = { store, sensitive: step.readsSensitive === true, read: [] as ArtifactRef[] };
  const source = inputSource(s, step);
  // An operator's retry input is the whole input; otherwise a received handoff joins it (handoff-input.ts).
  const given = source.kind === 'value' ? source.value : withHandoff(step, source.kind === 'run_input' ? m.input : await evaluate(source.expression, port.context(live, {}, s.activation, reads)), m.view);
  const input = resolveAll(given, reads);
  if (reads.read.length === 0) return { input, recorded: input };
  const raw = source.kind === 'expression' ? withHandoff(step, await evaluate(source.expression, port.context(live, {}, s.activation, 'raw')), m.view) : given;
  // The record with its references, when it names what the executor got and nothing else.
  if (hashOf(resolveAll(raw, { store, sensitive: reads.sensitive }) ?? null) === hashOf(input ?? null)) return { input, recorded: raw };
  const sensitive = reads.read.some((r) => r.$artifact.sensitive === true);
  return { input, recorded: sensitive ? store.put(input, true) : externalise(input, undefined, store, port.artifacts.threshold) };
}
