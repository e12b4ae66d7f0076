// The store's projections of the runs a tick changed, written in that tick's commit: the run's
// row always; step rows only while the run is unfinished (the live state an operator or a task
// list queries). A finished run's steps are read from its log, so a run that starts and ends in
// one tick writes no step rows at all. A big run's model is offered as its snapshot too
// (engine/store/run-snapshots.ts): the store takes it when one is due.
import type { Store } from '../store/store.ts';
import type { LiveRun } from './live-run.ts';
import { runRow, stepRow } from './projections.ts';
import { isTerminal } from '../../shared/run/run-status.ts';

export class RunProjector {
  /**
   * Runs with events not yet projected. Every one is projected before the commit that writes its
   * events, whether or not the tick advanced it: a child run created by its parent's tick, or a
   * queued run dequeued after it, gets its `runs` row in the commit of its `run_created`.
   */
  private readonly pending = new Set<LiveRun>();

  constructor(private readonly store: Store) {}

  /** The run has events its projection does not show yet. */
  mark(live: LiveRun): void {
    this.pending.add(live);
  }

  /** Writes the projections of every marked run (inside the commit about to be written). */
  projectPending(): void {
    for (const live of this.pending) this.project(live);
    this.pending.clear();
  }

  private project(live: LiveRun): void {
    const m = live.model;
    this.store.setRunProjection(runRow(m));
    this.store.offerRunSnapshot(m);
    if (isTerminal(m.state)) {
      if (live.stepRows) this.store.clearStepProjection(m.runId);
      live.stepRows = false;
      live.touched.clear();
      return;
    }
    if (live.touched.size > 0) live.stepRows = true;
    for (const id of live.touched) {
      const s = m.steps.get(id);
      if (s === undefined) continue;
      this.store.setStepProjection(m.runId, stepRow(s));
    }
    live.touched.clear();
  }
}
