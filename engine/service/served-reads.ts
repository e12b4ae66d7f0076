// The server's heavy reads (runs pages, run detail and a step's older attempts, a run's values by path, events pages, timelines, stats), answered by
// the read worker (read-worker.ts) off the engine's thread, as JSON text ready to send.
//
// Read-your-writes: before each read is handed to the worker, the engine's pending batch is
// committed on this thread (EngineService.committedNow). The worker's read starts after that
// commit, and in WAL mode (or on PostgreSQL, where each statement sees what was committed before
// it began) it sees every commit made before it began; so a client that got an
// answer to a command (which the engine acted on before answering) never reads a state older
// than that answer. The service's clock gives the instant a time-dependent answer is as of.
import type { RunListFilter } from '../store/run-list.ts';
import { definedOf, type StatsAsk } from './read-model.ts';
import type { EngineService } from './engine-service.ts';
import type { ReadQuery } from './read-worker-protocol.ts';
import { ReadWorker } from './read-worker.ts';
import { JsonText } from './json-text.ts';
import type { RunSummaryPage } from '../../shared/api/run-summary.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { RunEventsPage } from '../../shared/api/event-page.ts';
import type { Timeline } from '../../shared/api/timeline.ts';
import type { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import type { RunValue, RunValueQuery } from '../../shared/api/run-value.ts';
import { DETAIL_ATTEMPTS } from '../../shared/api/read-limits.ts';
import type { StepAttemptsPage, StepAttemptsQuery } from '../../shared/api/step-attempts.ts';

export class ServedReads {
  private readonly worker: ReadWorker;

  /**
   * `store`: the store the service's engine owns, a file's path or a PostgreSQL URL (the worker
   * opens it by that text; a PostgreSQL store's artifacts are in the service's workspace's
   * .weft/); `script` is the worker's file (tests).
   */
  constructor(
    private readonly service: EngineService,
    store: string,
    script?: URL,
  ) {
    const inline = (q: ReadQuery): string => JSON.stringify(this.inline(q));
    this.worker = new ReadWorker(store, inline, script, service.files.root);
  }

  /** A page of the runs list (GET /api/runs). */
  async runs(filter: RunListFilter): Promise<JsonText<RunSummaryPage>> {
    return new JsonText(await this.worker.read({ op: 'runs', filter, now: this.service.committedNow() }));
  }

  /**
   * A run's detail with values over `elideOver` bytes as stubs and only each step's latest
   * DETAIL_ATTEMPTS attempts (GET /api/runs/:id).
   */
  async runDetail(run: string, elideOver: number): Promise<JsonText<RunDetail>> {
    this.service.committedNow();
    return new JsonText(await this.worker.read({ op: 'run-detail', run, elideOver, latestAttempts: DETAIL_ATTEMPTS }));
  }

  /** One value of a run by its value path, whole or level by level (GET /api/runs/:id/value; run-value-read.ts). */
  async runValue(run: string, query: RunValueQuery): Promise<JsonText<RunValue>> {
    this.service.committedNow();
    return new JsonText(await this.worker.read({ op: 'run-value', run, query }));
  }

  /** A page of a step's attempts, values over `elideOver` bytes as stubs (GET /api/runs/:id/steps/:stepId/attempts). */
  async stepAttempts(run: string, stepId: string, q: StepAttemptsQuery, elideOver: number): Promise<JsonText<StepAttemptsPage>> {
    this.service.committedNow();
    return new JsonText(await this.worker.read({ op: 'step-attempts', run, stepId, ...q, elideOver }));
  }

  /** A page of a run's events (GET /api/runs/:id/events). */
  async events(run: string, after: number, limit: number, elide?: number): Promise<JsonText<RunEventsPage>> {
    this.service.committedNow();
    return new JsonText(await this.worker.read({ op: 'events', run, after, limit, ...(elide === undefined ? {} : { elide }) }));
  }

  /** A run's timeline (GET /api/runs/:id/timeline). */
  async timeline(run: string): Promise<JsonText<Timeline>> {
    return new JsonText(await this.worker.read({ op: 'timeline', run, asOf: this.service.committedNow() }));
  }

  /** A workflow's report over its runs (GET /api/stats/:workflowId). */
  async stats(workflowId: string, ask: StatsAsk = {}): Promise<JsonText<WorkflowReport>> {
    return new JsonText(await this.worker.read({ op: 'stats', workflowId, ...definedOf(ask), asOf: this.service.committedNow() }));
  }

  /**
   * Starts the read worker ahead of the first read, so that read does not wait for its thread to
   * boot, nor does the engine share the machine with that boot while a client waits on it.
   */
  start(): Promise<void> {
    return this.worker.start();
  }

  close(): Promise<void> {
    return this.worker.close();
  }

  /** The same reads on this thread, by the service: where no worker can run. */
  private inline(q: ReadQuery): unknown {
    const s = this.service;
    switch (q.op) {
      case 'runs':
        return s.runs(q.filter);
      case 'run-detail':
        return s.runDetail(q.run, { ...(q.elideOver === undefined ? {} : { elideOver: q.elideOver }), ...(q.latestAttempts === undefined ? {} : { latestAttempts: q.latestAttempts }) });
      case 'run-value':
        return s.runValue(q.run, q.query);
      case 'step-attempts':
        return s.stepAttempts(q.run, q.stepId, q, q.elideOver);
      case 'events':
        return s.events(q.run, q.after, q.limit, q.elide);
      case 'timeline':
        return s.timeline(q.run);
      case 'stats':
        return s.stats(q.workflowId, q);
    }
  }
}
