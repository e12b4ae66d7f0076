// What the engine's thread asks the comparison worker (compare-worker-entry.ts) and what it answers,
// over the store worker's protocol (store-worker-protocol.ts): two runs and the cut, answered with
// their comparison or the service's error.
import type { ComparisonCut } from '../../shared/run/elide-comparison.ts';

export interface CompareRequest {
  a: string;
  b: string;
  cut: ComparisonCut;
}
