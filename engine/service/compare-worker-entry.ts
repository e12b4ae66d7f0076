// The comparison worker's own thread: it compares two runs (RunReader.runComparison) over a
// read-only connection of its own to the store, so folding two logs of megabytes never holds the
// engine's event loop (docs/compare.md). compare-worker.ts starts it and sends it requests; each is
// answered with the comparison or with the service's error (an unknown run names its side).
import { parentPort, workerData } from 'node:worker_threads';
import type { CompareReply, CompareRequest, CompareWorkerData } from './compare-worker-protocol.ts';
import { withRunReader } from './read-only-store.ts';
import { serviceErrorOf } from './service-error.ts';

const data: CompareWorkerData = workerData;
const storePath = data.storePath;
if (typeof storePath !== 'string') throw new Error('the comparison worker was started without the path of its store');

async function answer(request: CompareRequest): Promise<CompareReply> {
  try {
    return { id: request.id, comparison: await withRunReader(storePath, (reader) => reader.runComparison(request.a, request.b, request.cut)) };
  } catch (e) {
    const known = serviceErrorOf(e);
    if (known !== undefined) return { id: request.id, error: { code: known.code, message: known.message, ...(known.path === undefined ? {} : { path: known.path }) } };
    return { id: request.id, error: { code: 'internal', message: `the comparison failed: ${e instanceof Error ? e.message : String(e)}` } };
  }
}

// Requests are answered one at a time, in order: the worker's thread is the queue.
let queue = Promise.resolve();
parentPort?.on('message', (request: CompareRequest) => {
  queue = queue.then(async () => parentPort?.postMessage(await answer(request)));
});
