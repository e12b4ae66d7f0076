// Rebuilds a run's model from its stored events: what inspect, fork and a restarting engine read.
// The fold itself is shared/run's (the app folds logs with the same code).
//
// Readers (inspect, fork, revise: engine/service/run-reader.ts) pass the log read with the full
// check. The engine's own loads (resume, recovery, rebuilt projections) read it as the engine
// wrote it (Store.readRunLog, or Store.readRunLogs for many runs at once), without re-checking each event's data against its schema: a
// resume of 1,000 runs would parse every event of every run again.
// Should the fold trip over an event all the same (data damaged inside the file), the log is
// read again with the full check, so the error names the event and says the store is damaged
// instead of surfacing as a crash deep in the fold.
import type { RunEvent } from '../../shared/events/run-event.ts';
import { foldEvents } from '../../shared/run/fold-events.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';

/** `events`: the run's log when the caller has read it already, fully checked (it is not read again). */
export function foldRun(store: Store, runId: string, events?: readonly RunEvent[]): RunModel {
  return events === undefined ? foldStoredRun(store, runId) : foldLog(store, runId, events);
}

/**
 * The engine's own load of a run: its log as the engine wrote it, `log` when the caller read it
 * already (Store.readRunLogs, recovery's batched read), else read here (Store.readRunLog).
 */
export function foldStoredRun(store: Store, runId: string, log?: readonly RunEvent[]): RunModel {
  try {
    return foldLog(store, runId, log ?? store.readRunLog(runId));
  } catch (error) {
    // Throws the damage it finds, naming the run, the event and what is wrong with its data.
    store.readEvents(runId);
    throw error;
  }
}

function foldLog(store: Store, runId: string, events: readonly RunEvent[]): RunModel {
  const created = events[0];
  if (created?.type !== 'run_created') throw new StoreError('unknown-run', `no run "${runId}" in this store; list runs with \`weft runs\``);
  const def = store.loadDefinition(created.data.workflowId, created.data.version);
  if (def === undefined) {
    throw new StoreError('io', `the definition snapshot of run ${runId} (${created.data.workflowId} v${created.data.version}) is missing; the store is damaged`);
  }
  return foldEvents(def.workflow, events);
}
