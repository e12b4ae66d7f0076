// What a step's evidence covers: the hash of its resolved input (for a transform without an
// `input` expression, only the input fields its expression reads) and of the outputs of the
// steps its expressions read. The scheduler records it on every attempt; a revision plan computes
// it for the next revision the same way.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { hashOf } from '../store/canonical-json.ts';
import { projectInput, stepReads, transformInputPaths } from './expressions.ts';

export function coverageHash(step: Step, input: unknown, view: Readonly<Record<string, { output: unknown }>>): string {
  const reads = stepReads(step);
  const paths = step.kind === 'transform' && step.input === undefined ? transformInputPaths(step) : null;
  const covered = paths === null ? input : projectInput(input, paths);
  return hashOf(reads.length === 0 ? { input: covered } : { input: covered, reads: Object.fromEntries(reads.map((id) => [id, view[id]?.output ?? null])) });
}
