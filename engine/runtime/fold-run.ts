// Rebuilds a run's model from its stored events: what inspect, fork and a restarting engine read.
// The fold itself is shared/run's (the app folds logs with the same code).
import type { RunEvent } from '../../shared/events/run-event.ts';
import { foldEvents } from '../../shared/run/fold-events.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';

/** `events`: the run's log when the caller has read it already (it is not read again). */
export function foldRun(store: Store, runId: string, events: readonly RunEvent[] = store.readEvents(runId)): RunModel {
  const created = events[0];
  if (created?.type !== 'run_created') throw new StoreError('unknown-run', `no run "${runId}" in this store; list runs with \`weft runs\``);
  const def = store.loadDefinition(created.data.workflowId, created.data.version);
  if (def === undefined) {
    throw new StoreError('io', `the definition snapshot of run ${runId} (${created.data.workflowId} v${created.data.version}) is missing; the store is damaged`);
  }
  return foldEvents(def.workflow, events);
}
