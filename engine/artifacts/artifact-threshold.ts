// The size over which a step's output is stored by reference, from the environment:
// WEFT_ARTIFACT_THRESHOLD, in bytes (docs/long-running.md). Unset: the default, 8 MiB.
import { StoreError } from '../store/store-error.ts';

/**
 * `{ artifactThreshold }` for EngineOptions, or nothing when the variable is unset.
 *
 * @example
 * artifactThreshold({ WEFT_ARTIFACT_THRESHOLD: '65536' }); // { artifactThreshold: 65536 }
 */
export function artifactThreshold(env: NodeJS.ProcessEnv): { artifactThreshold?: number } {
  const text = env['WEFT_ARTIFACT_THRESHOLD'];
  if (text === undefined || text === '') return {};
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new StoreError('bad-input', `WEFT_ARTIFACT_THRESHOLD is "${text}": give a whole number of bytes (e.g. 1048576 for 1 MiB), or unset it for the default`);
  return { artifactThreshold: n };
}
