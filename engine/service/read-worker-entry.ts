// The read worker's own thread: the server's heavy reads (read-model.ts: runs pages, run detail,
// a run's values by path, events pages, timelines, stats) over a read-only connection of its own to the store, opened once.
// In WAL mode each read sees the store as of the last commit before it began, so the engine's
// thread goes on writing meanwhile; on PostgreSQL (a URL) each statement sees every commit made
// before it began, the engine's and other workers'. read-worker.ts starts it (store-worker.ts); requests are
// answered one at a time, in order, as JSON text or the service's error. The models of the runs
// read lately are kept and folded forward by what was committed since (folded-runs.ts): the app
// re-reads a live run's detail every 500 ms.
import type { ReadQuery } from './read-worker-protocol.ts';
import { openReadOnlyStore } from './read-only-store.ts';
import { RunReader } from './run-reader.ts';
import { eventPageOf, runDetailOf, runSummaryPage, statsOf, stepAttemptsOf, timelineOf, type RunModels } from './read-model.ts';
import { FoldedRuns } from './folded-runs.ts';
import { runValueOf } from './run-value-read.ts';
import { storeWorkerError } from './store-worker-protocol.ts';
import { answerRequests, workerStore } from './store-worker-thread.ts';
import { storeFailure } from '../store/store-failure.ts';
import { describeStore, storeLocator } from '../store/store-locator.ts';

const opened = workerStore('the read worker');
const { store } = await openReadOnlyStore(opened.store);
const where = describeStore(storeLocator(opened.store, process.cwd()));
const reader = new RunReader(store);
const folded = new FoldedRuns(store);
const models: RunModels = { resolveRunId: (id) => reader.resolveRunId(id), fold: (runId) => folded.model(runId), summary: (runId, n) => folded.summary(runId, n) };

function read(q: ReadQuery): unknown {
  switch (q.op) {
    case 'runs':
      return runSummaryPage(store, q.filter, q.now);
    case 'run-detail':
      return runDetailOf(models, q.run, { ...(q.elideOver === undefined ? {} : { elideOver: q.elideOver }), ...(q.latestAttempts === undefined ? {} : { latestAttempts: q.latestAttempts }) });
    case 'run-value':
      return runValueOf(store, models, q.run, q.query);
    case 'step-attempts':
      return stepAttemptsOf(models, q.run, q.stepId, q, q.elideOver);
    case 'events':
      return eventPageOf(reader, q.run, q.after, q.limit, q.elide);
    case 'timeline':
      return timelineOf(store, q.run, q.asOf);
    case 'stats':
      return statsOf(store, q.workflowId, q, q.asOf);
  }
}

answerRequests(
  (q: ReadQuery) => JSON.stringify(read(q)),
  (e) => storeWorkerError(storeFailure(where, e, 'read') ?? e, 'the read failed (a bug in weft; please report it)'),
);
