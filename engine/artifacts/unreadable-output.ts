// An executor's output that holds an artifact reference this engine cannot read (docs/long-running.md,
// "Large and sensitive data by reference"): an executor gives values, and the engine alone makes
// references, so such an output names a value kept somewhere else, as a scenario does that was
// made from a run by a `weft test --from-run` that left the run's references in it. The attempt
// fails on it, naming the step, the artifact and the fix, and nothing after it ever reads the
// reference (a read that failed in a later step's settle would stop the engine).
import { artifactRefsIn, holdsArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import type { AttemptResult } from '../executors/executor.ts';
import type { ArtifactStore } from './artifact-store.ts';

/**
 * `r` itself, or, when its output holds a reference `store` cannot read, a failure saying so
 * (invalid_output, not retried: the same call gives the same reference).
 *
 * @example
 * readableOutput({ outcome: 'succeeded', output: { $artifact: { sha256: 'ab…', size: 9, mediaType: 'application/json' } } }, store, 'fetch');
 * // { outcome: 'failed', code: 'invalid_output', message: 'the output of "fetch" holds a reference to artifact ab…, …', retryable: false }
 */
export function readableOutput(r: AttemptResult, store: ArtifactStore, stepId: string): AttemptResult {
  if (r.outcome === 'unknown' || r.output === undefined || !holdsArtifactRef(r.output)) return r;
  for (const ref of artifactRefsIn(r.output)) {
    try {
      store.read(ref);
    } catch (e) {
      const message = `the output of "${stepId}" holds a reference to artifact ${ref.$artifact.sha256} (${ref.$artifact.size} bytes) that this engine cannot read: ${(e as Error).message}. An output is a value, not a reference: put the value itself there (a scenario made by an older weft test --from-run holds the run's references; make it again)`;
      return { outcome: 'failed', code: 'invalid_output', message, retryable: false, ...(r.meta === undefined ? {} : { meta: r.meta }) };
    }
  }
  return r;
}
