// A reader's fold of a run: from the run's stored snapshot (engine/store/run-snapshots.ts) and the
// events after it, else from its whole log. A run of 100,000 events read, decoded and folded its
// whole log on every cold read (about 1 s); with a snapshot only the events after it are read.
// The events after it are read with the full check (Store.readEvents), as a whole log would be
// for a reader; the snapshot was folded by the engine from the log it wrote (fold-run.ts says
// why that needs no check). Should the snapshot not fold on (an event that does not apply to
// it), the whole log is folded instead, which names any damage in it.
import { applyEvent } from '../../shared/run/apply-event.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { foldRun } from '../runtime/fold-run.ts';
import type { Store } from '../store/store.ts';

/** A run's model as of its last committed event, and whether a snapshot saved folding its whole log. */
export function foldForReader(store: Store, runId: string): { model: RunModel; fromSnapshot: boolean } {
  const snapshot = store.runSnapshot(runId);
  if (snapshot !== undefined) {
    try {
      for (const e of store.readEvents(runId, { after: snapshot.lastSeq })) applyEvent(snapshot, e);
      return { model: snapshot, fromSnapshot: true };
    } catch {
      // Folded from the log below, which names the damage if there is any.
    }
  }
  return { model: foldRun(store, runId, store.readEvents(runId)), fromSnapshot: false };
}
