// The whole logs of the runs this store created and has not yet seen finish, as append() gave
// out their events: a run that finishes in a commit is rolled up from its log (run-rollups.ts),
// and reading back what the store has just written (its rows, then a JSON parse per event) was
// about 5% of every run's cost. The events are the very objects the engine folds into its models,
// which never change once appended. A log is complete from seq 1 or not kept at all: a run this
// store did not create (a restarted engine, another process's run) is read back as before, and
// so is one that went past what is kept. Only the lease holder writes runs, so no other
// connection adds to a log kept here; a commit that fails forgets the logs it touched.
import type { RunEvent } from '../../shared/events/run-event.ts';

/** Events kept for one run at most: a longer log is read back at its finish. */
const RUN_CAP = 5_000;
/** Events kept for all runs at most: past it, runs created meanwhile are read back at their finish. */
const TOTAL_CAP = 100_000;

export class WrittenLogs {
  private readonly logs = new Map<string, RunEvent[]>();
  private total = 0;

  constructor(private readonly caps = { run: RUN_CAP, total: TOTAL_CAP }) {}

  /** Notes an appended event: the first of a run (seq 1) starts its log, a later one extends a log kept. */
  add(event: RunEvent): void {
    if (event.seq === 1) {
      this.forget(event.runId);
      if (this.total >= this.caps.total) return;
      this.logs.set(event.runId, [event]);
      this.total++;
      return;
    }
    const log = this.logs.get(event.runId);
    if (log === undefined) return;
    if (log.length >= this.caps.run || log[log.length - 1]?.seq !== event.seq - 1) {
      this.forget(event.runId);
      return;
    }
    log.push(event);
    this.total++;
  }

  /** The run's whole log, or undefined when it is not kept (read it back). */
  of(runId: string): readonly RunEvent[] | undefined {
    return this.logs.get(runId);
  }

  /** Drops a run's log: it finished and was rolled up (a later event starts no log again), or its commit failed. */
  forget(runId: string): void {
    const log = this.logs.get(runId);
    if (log === undefined) return;
    this.total -= log.length;
    this.logs.delete(runId);
  }

  /** Runs kept and their events, for tests and stats. */
  get size(): { runs: number; events: number } {
    return { runs: this.logs.size, events: this.total };
  }
}
