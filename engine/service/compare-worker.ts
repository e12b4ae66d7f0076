// Comparisons of two runs off the engine's thread (`GET /api/compare`). Folding two logs that hold
// megabytes of inputs takes seconds, and on the engine's thread it would stall every run and every
// request meanwhile (test/bench/compare-bench.ts measures it), so a store worker (store-worker.ts:
// its own thread and read-only connection, started on demand, with its fallback to this thread
// where no worker can run) computes them, one at a time, and the engine's thread only receives the
// answer, already cut to its stubs. What it computes is compare-worker-entry.ts.
import type { RunComparison } from '../../shared/api/run-comparison.ts';
import type { ComparisonCut } from '../../shared/run/elide-comparison.ts';
import type { CompareRequest } from './compare-worker-protocol.ts';
import { StoreWorker } from './store-worker.ts';

/** Computes a comparison on the calling thread: the fallback where no worker can run. */
export type CompareInline = (a: string, b: string, cut: ComparisonCut) => RunComparison;

export class CompareWorker {
  private readonly worker: StoreWorker<CompareRequest, RunComparison>;

  /**
   * `store`: the store the engine owns (a path or a PostgreSQL URL), which the worker opens
   * read-only; `inline` computes where no worker can run; `script` is the worker's file (tests
   * give one that cannot load); `workspace` keeps a PostgreSQL store's artifacts.
   */
  constructor(store: string, inline: CompareInline, script?: URL, workspace?: string) {
    this.worker = new StoreWorker({
      store,
      ...(workspace === undefined ? {} : { workspace }),
      entry: 'compare-worker-entry',
      inline: (r: CompareRequest) => inline(r.a, r.b, r.cut),
      name: 'the comparison worker',
      answered: 'the runs were compared',
      unanswered: 'the runs were not compared',
      ...(script === undefined ? {} : { script }),
    });
  }

  /**
   * Runs `a` and `b` (ids or unique prefixes) side by side, cut by `cut`, computed on the worker.
   * Rejects with the ServiceError the reader raised (an unknown run names its side).
   */
  compare(a: string, b: string, cut: ComparisonCut): Promise<RunComparison> {
    return this.worker.ask({ a, b, cut });
  }

  /** Stops the worker; comparisons still waiting are refused. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
