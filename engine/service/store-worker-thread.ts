// The worker's side of a store worker (store-worker.ts): the store it was started with, and the
// loop that answers requests one at a time, in order (the worker's thread is the queue), each with
// its answer or its error as it crosses threads. Each worker's entry file holds only what it computes.
import { parentPort, workerData } from 'node:worker_threads';
import type { StoreWorkerData, StoreWorkerError, StoreWorkerReply, StoreWorkerRequest } from './store-worker-protocol.ts';

/** The store this worker was started with (its text: a path or a URL) and its workspace; `worker` names it where there is none. */
export function workerStore(worker: string): { store: string; workspace?: string } {
  const data: StoreWorkerData | undefined = workerData;
  const store = data?.store;
  if (typeof store !== 'string') throw new Error(`${worker} was started without its store`);
  return { store, ...(data?.workspace === undefined ? {} : { workspace: data.workspace }) };
}

/** Answers each request from the engine's thread with `answer`, or with `failed` of what it threw. */
export function answerRequests<Q, A>(answer: (request: Q) => A | Promise<A>, failed: (e: unknown) => StoreWorkerError): void {
  const port = parentPort;
  if (port === null) throw new Error('a store worker runs on a worker thread, not the main one');
  let queue = Promise.resolve();
  port.on('message', ({ id, request }: StoreWorkerRequest<Q>) => {
    queue = queue.then(async () => {
      let reply: StoreWorkerReply<A>;
      try {
        reply = { id, answer: await answer(request) };
      } catch (e) {
        reply = { id, error: failed(e) };
      }
      try {
        port.postMessage(reply);
      } catch (e) {
        // An answer that cannot cross threads fails its request, never the ones after it.
        port.postMessage({ id, error: failed(e) } satisfies StoreWorkerReply<A>);
      }
    });
  });
}
