import { errorOf, readAnswer, send } from './http.ts';
// The workflow report (`GET /api/stats/:workflowId?version=`, the same report as
// `weft stats --json`), parsed with shared/api/workflow-stats.ts. A workflow that has never run
// is not an error here: the engine answers 404 for it, and this gives null (the empty state).
import { WorkflowReport } from '../../shared/api/workflow-stats.ts';

export class StatsClient {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  /**
   * The report of `workflowId` over all its runs, or over those of `version`; null when the
   * store has no run of it.
   *
   * @example
   * const report = await new StatsClient(token).report('trip-saga');
   * if (report === null) showEmptyState();
   */
  async report(workflowId: string, version?: number): Promise<WorkflowReport | null> {
    const path = `/api/stats/${encodeURIComponent(workflowId)}${version === undefined ? '' : `?version=${version}`}`;
    const response = await send(this.base, this.token, path);
    if (response.status === 404) {
      const error = await errorOf(response, path);
      if (error.code === 'not-found') return null;
      throw error;
    }
    return readAnswer(response, WorkflowReport, path);
  }
}
