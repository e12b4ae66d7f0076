// The comparison worker's own thread: it compares two runs (RunReader.runComparison) over a
// read-only connection of its own to the store, so folding two logs of megabytes never holds the
// engine's event loop (docs/compare.md). compare-worker.ts starts it (store-worker.ts) and sends it
// requests; each is answered with the comparison or with the service's error (an unknown run
// names its side).
import type { CompareRequest } from './compare-worker-protocol.ts';
import { withRunReader } from './read-only-store.ts';
import { storeWorkerError } from './store-worker-protocol.ts';
import { answerRequests, workerStore } from './store-worker-thread.ts';

const { store, workspace } = workerStore('the comparison worker');

answerRequests(
  (r: CompareRequest) => withRunReader(store, (reader) => reader.runComparison(r.a, r.b, r.cut), undefined, workspace === undefined ? {} : { workspace }),
  (e) => storeWorkerError(e, 'the comparison failed'),
);
