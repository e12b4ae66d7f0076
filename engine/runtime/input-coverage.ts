// What a step's evidence covers: the hash of its resolved input (for a transform without an
// `input` expression, only the input fields its expression reads), of the outputs of the steps
// its expressions read, and of its activation number when its expressions read `$activation`
// (the same input gives another result in another pass). The scheduler records it on every
// attempt; a revision plan computes it for the next revision the same way.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { hashOf } from '../store/canonical-json.ts';
import { projectInput, stepReads, stepReadsActivation, transformInputPaths } from './expressions.ts';

export function coverageHash(step: Step, input: unknown, view: Readonly<Record<string, { output: unknown }>>, activation: number): string {
  const reads = stepReads(step);
  const paths = step.kind === 'transform' && step.input === undefined ? transformInputPaths(step) : null;
  const covered = paths === null ? input : projectInput(input, paths);
  return hashOf({
    input: covered,
    ...(reads.length === 0 ? {} : { reads: Object.fromEntries(reads.map((id) => [id, view[id]?.output ?? null])) }),
    ...(stepReadsActivation(step) ? { activation } : {}),
  });
}
