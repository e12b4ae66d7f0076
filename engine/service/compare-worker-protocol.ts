// What the engine's thread and the comparison worker (compare-worker-entry.ts) say to each other:
// one request per comparison, answered by its id with the comparison or the service's error.
import type { RunComparison } from '../../shared/api/run-comparison.ts';
import type { ComparisonCut } from '../../shared/run/elide-comparison.ts';
import type { ServiceErrorCode } from './service-error.ts';

/** What the worker is started with. */
export interface CompareWorkerData {
  /** The store to open read-only. */
  storePath: string;
  /** Under tsx only: the TypeScript entry the bootstrap imports once tsx is registered. */
  entry?: string;
}

export interface CompareRequest {
  id: number;
  a: string;
  b: string;
  cut: ComparisonCut;
}

export type CompareReply =
  | { id: number; comparison: RunComparison }
  | { id: number; error: { code: ServiceErrorCode; message: string; path?: string } };
