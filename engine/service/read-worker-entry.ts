// The read worker's own thread: the server's heavy reads (read-model.ts: runs pages, run detail,
// events pages, timelines, stats) over a read-only connection of its own to the store, opened once.
// In WAL mode each read sees the store as of the last commit before it began, so the engine's
// thread goes on writing meanwhile. Requests are answered one at a time, in order.
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadQuery, ReadReply, ReadRequest, ReadWorkerData } from './read-worker-protocol.ts';
import { openReadOnlyStore } from './read-only-store.ts';
import { RunReader } from './run-reader.ts';
import { eventPageOf, runDetailOf, runSummaryPage, statsOf, timelineOf } from './read-model.ts';
import { serviceErrorOf } from './service-error.ts';
import { storeFailure } from '../store/store-failure.ts';

const data: ReadWorkerData = workerData;
const storePath = data.storePath;
if (typeof storePath !== 'string') throw new Error('the read worker was started without the path of its store');

const { store } = await openReadOnlyStore(storePath);
const reader = new RunReader(store);

function read(q: ReadQuery): unknown {
  switch (q.op) {
    case 'runs':
      return runSummaryPage(store, q.filter, q.now);
    case 'run-detail':
      return runDetailOf(reader, q.run, q.elideOver);
    case 'events':
      return eventPageOf(reader, q.run, q.after, q.limit, q.elide);
    case 'timeline':
      return timelineOf(store, q.run, q.asOf);
    case 'stats':
      return statsOf(store, q.workflowId, q.version, q.asOf);
  }
}

function answer(request: ReadRequest): ReadReply {
  try {
    return { id: request.id, json: JSON.stringify(read(request.query)) };
  } catch (e) {
    const known = serviceErrorOf(storeFailure(storePath, e, 'read') ?? e);
    if (known !== undefined) return { id: request.id, error: { code: known.code, message: known.message, ...(known.path === undefined ? {} : { path: known.path }) } };
    return { id: request.id, error: { code: 'internal', message: `the read failed (a bug in weft; please report it): ${e instanceof Error ? e.message : String(e)}` } };
  }
}

parentPort?.on('message', (request: ReadRequest) => {
  parentPort?.postMessage(answer(request));
});
