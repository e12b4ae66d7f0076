// The values a run kept by reference because they are large (docs/long-running.md, "Large and
// sensitive data by reference"), put back in place for a scenario made from the run
// (run-to-scenario.ts): a scenario holds values, and the engine that runs it has its own artifact
// store, which never held the run's. A sensitive reference is left as it is (the scenario holds
// the placeholder there, sensitive-placeholder.ts), also inside a value read back.
import { isArtifactRef, isSensitiveRef, type ArtifactRef } from '../../shared/artifacts/artifact-ref.ts';

/** An artifact that cannot be read back: which, where in the scenario, and why. */
export class UnreadableArtifactError extends Error {
  constructor(
    readonly sha256: string,
    readonly at: string,
    readonly reason: Error,
  ) {
    super(`the value at ${at} is kept by reference (artifact ${sha256}), and it cannot be read: ${reason.message}`);
    this.name = 'UnreadableArtifactError';
  }
}

const key = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

/**
 * `value` with every reference that is not sensitive replaced by the value it names, read with
 * `read`; `at` names the value in the errors (a path in the scenario).
 *
 * @example
 * inlineArtifacts({ body: { $artifact: { sha256: 'ab…', size: 9, mediaType: 'application/json' } } }, (ref) => store.read(ref), 'steps.fetch[0].succeed');
 * // { body: { rows: [1, 2] } }
 */
export function inlineArtifacts(value: unknown, read: (ref: ArtifactRef) => unknown, at: string): unknown {
  if (value === null || typeof value !== 'object' || isSensitiveRef(value)) return value;
  if (isArtifactRef(value)) {
    let inner: unknown;
    try {
      inner = read(value);
    } catch (e) {
      throw new UnreadableArtifactError(value.$artifact.sha256, at, e as Error);
    }
    return inlineArtifacts(inner, read, at);
  }
  if (Array.isArray(value)) return value.map((x, i) => inlineArtifacts(x, read, `${at}[${i}]`));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = inlineArtifacts(v, read, at === '' ? k : `${at}${key(k)}`);
  return out;
}
