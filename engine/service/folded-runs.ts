// The folded models of the runs read lately, kept by the read worker (read-worker-entry.ts) and
// folded forward on each read by the events committed since. The app re-reads a live run's detail
// every 500 ms, and a run of 100,000 events took about 2 s to read and fold from its first event
// each time; now a read folds only what is new. New events are read with the same check as a
// whole log (Store.readEvents: each event's data against its schema), so what a reader shows is
// exactly what a fresh fold would show (test/service/folded-runs.test.ts proves the two equal).
//
// A run not kept is folded from its snapshot and the events after it, where the store has one
// (snapshot-fold.ts); and the detail of a run whose snapshot is as new as its log is its stored
// summary, with no fold at all (summary()).
//
// The memory bound is counted in folded events, a model's size growing with its log: at most
// MAX_RUNS models and MAX_EVENTS events in all (the least recently read go first); a run whose log
// alone is over the bound is folded for its read and not kept. The bench's loop run of 100,000
// events with small values keeps about 14 MB of heap; a run's large values cost more per event.
import type { RunModel } from '../../shared/run/run-model.ts';
import { applyEvent } from '../../shared/run/apply-event.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Store } from '../store/store.ts';
import { foldForReader } from './snapshot-fold.ts';

/** Models kept at most. */
export const MAX_RUNS = 8;
/** Events folded into the kept models, at most in all (docs/server.md). */
export const MAX_EVENTS = 250_000;

export interface FoldedRunsBounds {
  maxRuns: number;
  maxEvents: number;
}

export class FoldedRuns {
  /** Least recently read first. */
  private readonly kept = new Map<string, RunModel>();
  private events = 0;
  /** Reads answered from a kept model, and folds from the first event: for tests and the bench. */
  readonly counts = { forward: 0, fresh: 0 };
  /** Of the fresh folds, those that started from a stored snapshot; and summaries read as stored. */
  readonly snapshots = { folds: 0, summaries: 0 };

  constructor(
    private readonly store: Store,
    private readonly bounds: FoldedRunsBounds = { maxRuns: MAX_RUNS, maxEvents: MAX_EVENTS },
  ) {}

  /**
   * The run's model as of its last committed event: a kept one folded forward by the events after
   * its lastSeq, else a fold of the whole log, checked. The caller reads the model and must not
   * change it (the next read folds on from it).
   */
  model(runId: string): RunModel {
    const kept = this.take(runId);
    const model = kept === undefined ? this.fresh(runId) : this.forward(kept);
    this.keep(model);
    return model;
  }

  /**
   * The run's stored summary (RunDetail with each step's latest `latestAttempts` attempts) and its
   * definition, when no model of it is kept and its snapshot is as new as its log; else undefined
   * (the caller builds it from model()). A kept model is folded forward instead: it is as cheap.
   */
  summary(runId: string, latestAttempts: number): { detail: RunDetail; workflow: Workflow } | undefined {
    if (this.kept.has(runId)) return undefined;
    const stored = this.store.currentRunSummary(runId, latestAttempts);
    if (stored !== undefined) this.snapshots.summaries++;
    return stored;
  }

  /** How many models are kept, and the events folded into them. */
  size(): { runs: number; events: number } {
    return { runs: this.kept.size, events: this.events };
  }

  private take(runId: string): RunModel | undefined {
    const model = this.kept.get(runId);
    if (model === undefined) return undefined;
    this.kept.delete(runId);
    this.events -= model.lastSeq;
    return model;
  }

  private fresh(runId: string): RunModel {
    this.counts.fresh++;
    const { model, fromSnapshot } = foldForReader(this.store, runId);
    if (fromSnapshot) this.snapshots.folds++;
    return model;
  }

  /** Folds `model` forward in place; should an event not apply, the model is dropped and the run folded afresh (which names the damage). */
  private forward(model: RunModel): RunModel {
    const events = this.store.readEvents(model.runId, { after: model.lastSeq });
    try {
      for (const e of events) applyEvent(model, e);
    } catch {
      return this.fresh(model.runId);
    }
    this.counts.forward++;
    return model;
  }

  private keep(model: RunModel): void {
    if (model.lastSeq > this.bounds.maxEvents) return;
    this.kept.set(model.runId, model);
    this.events += model.lastSeq;
    for (const [runId, old] of this.kept) {
      if (this.kept.size <= this.bounds.maxRuns && this.events <= this.bounds.maxEvents) break;
      this.kept.delete(runId);
      this.events -= old.lastSeq;
    }
  }
}
