// Rebuilds a run's model from its stored events: what inspect, fork and a restarting engine read.
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';
import { applyEvent, newRunModel, type RunModel } from './run-model.ts';

/** `events`: the run's log when the caller has read it already (it is not read again). */
export function foldRun(store: Store, runId: string, events: readonly RunEvent[] = store.readEvents(runId)): RunModel {
  const created = events[0] as RunEvent<'run_created'> | undefined;
  if (created?.type !== 'run_created') throw new StoreError('unknown-run', `no run "${runId}" in this store; list runs with \`weft runs\``);
  const def = store.loadDefinition(created.data.workflowId, created.data.version);
  if (def === undefined) {
    throw new StoreError('io', `the definition snapshot of run ${runId} (${created.data.workflowId} v${created.data.version}) is missing; the store is damaged`);
  }
  const model = newRunModel(runId, def.workflow);
  for (const e of events) applyEvent(model, e);
  return model;
}
