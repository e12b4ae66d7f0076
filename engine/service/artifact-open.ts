// Finding the artifact reference a value path names in a run (docs/long-running.md): the path is
// resolved against the run's RunDetail as GET /api/runs/:id/value resolves it; where it goes on
// through a large value kept by reference, that value is read and the rest of the path walked
// inside it. A sensitive reference on the way is not read through: it is opened by its own path.
import { isArtifactRef, type ArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import { formatValuePath, parseValuePath, type PathSegment } from '../../shared/api/value-path.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { valueAt } from '../../shared/run/value-at.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import { detailFor } from './run-value-read.ts';
import { ServiceError } from './service-error.ts';

/**
 * The reference at `path` in the run, and the path in its canonical form.
 *
 * @example
 * artifactAtPath(model, artifacts, 'steps.lookup.attempts[0].output.iban'); // { ref, path }
 */
export function artifactAtPath(model: RunModel, artifacts: ArtifactStore, path: string): { ref: ArtifactRef; path: string; value?: { inside: unknown } } {
  const segments = parseValuePath(path);
  if (!Array.isArray(segments)) throw new ServiceError('bad-input', `the value path "${path.slice(0, 200)}": ${segments.message}`, 'path');
  const canonical = formatValuePath(segments);
  const detail = detailFor(model, segments);
  let found: { value: unknown; via: ArtifactRef | undefined } = { value: undefined, via: undefined };
  let ok = false;
  // The longest prefix the run's detail holds; the rest is walked inside the artifacts it reaches.
  for (let k = segments.length; k > 0 && !ok; k--) {
    const at = valueAt(detail, segments.slice(0, k));
    if (!at.found) continue;
    ok = true;
    found = walkThrough(at.value, segments.slice(k), artifacts, canonical);
  }
  if (!ok) throw new ServiceError('not-found', `no value at ${canonical.slice(0, 200)} in run ${model.runId}; copy the path of a reference from weft inspect --json or the app`, 'path');
  if (isArtifactRef(found.value)) return { ref: found.value, path: canonical };
  // A path inside a large value kept by reference: the part it names.
  if (found.via !== undefined) return { ref: found.via, path: canonical, value: { inside: found.value } };
  throw new ServiceError('bad-input', `the value at ${canonical.slice(0, 200)} is not an artifact reference ({"$artifact": …}); only values kept by reference are opened`, 'path');
}

/** The value `rest` names inside `value`, read through the large values on the way; `via`: the last one read. */
function walkThrough(value: unknown, rest: readonly PathSegment[], artifacts: ArtifactStore, path: string): { value: unknown; via: ArtifactRef | undefined } {
  let cur = value;
  let via: ArtifactRef | undefined;
  for (const seg of rest) {
    if (isArtifactRef(cur)) {
      if (cur.$artifact.sensitive === true) throw new ServiceError('bad-input', `${path.slice(0, 200)} goes inside a sensitive value; open the sensitive value itself, by the path of its reference`, 'path');
      via = cur;
      cur = artifacts.read(cur);
    }
    const next: unknown = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[seg] : undefined;
    if (next === undefined || (typeof seg === 'number') !== Array.isArray(cur)) throw new ServiceError('not-found', `no value at ${path.slice(0, 200)}: nothing at ${typeof seg === 'number' ? `[${seg}]` : `"${seg}"`}`, 'path');
    cur = next;
  }
  return { value: cur, via };
}
