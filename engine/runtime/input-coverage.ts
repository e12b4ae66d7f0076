// What a step's evidence covers: the hash of its resolved input (for a transform without an
// `input` expression, only the input fields its expression reads), of the outputs of the steps
// its expressions read, of its activation number when its expressions read `$activation` (the
// same input gives another result in another pass), and for a compensation of the evidence it
// offsets. The scheduler records it on every attempt; a revision plan computes it for the next
// revision the same way.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { hashOf } from '../store/canonical-json.ts';
import { projectInput, stepReads, stepReadsActivation, transformInputPaths } from './expressions.ts';

/** The evidence a compensation offsets: the run it came from and its id. */
export interface Offsets {
  run: string;
  evidence: string;
}

export function coverageHash(step: Step, input: unknown, view: Readonly<Record<string, { output: unknown }>>, activation: number, offsets: Offsets | null = null): string {
  const reads = stepReads(step);
  const paths = step.kind === 'transform' && step.input === undefined ? transformInputPaths(step) : null;
  const covered = paths === null ? input : projectInput(input, paths);
  return hashOf({
    input: covered,
    ...(reads.length === 0 ? {} : { reads: Object.fromEntries(reads.map((id) => [id, view[id]?.output ?? null])) }),
    ...(stepReadsActivation(step) ? { activation } : {}),
    ...(offsets === null ? {} : { offsets }),
  });
}
