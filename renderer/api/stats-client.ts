// The workflow report (`GET /api/stats/:workflowId?version=`, the same report as
// `weft stats --json`), parsed with shared/api/workflow-stats.ts. A workflow that has never run
// is not an error here: the engine answers 404 for it, and this gives null (the empty state).
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import { ApiError } from './api-client.ts';

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
    const response = await fetch(`${this.base}${path}`, { headers: { authorization: `Bearer ${this.token}` } });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = ApiErrorBody.safeParse(body);
      if (response.status === 404 && error.success && error.data.error.code === 'not-found') return null;
      if (error.success) throw new ApiError(response.status, error.data.error.code, error.data.error.message, error.data.error.path);
      throw new ApiError(response.status, 'http-error', `HTTP ${response.status} from ${path}`);
    }
    const parsed = WorkflowReport.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError(response.status, 'bad-answer', `the engine's answer to ${path} does not match the app's contract at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''} (is the app older or newer than the engine?)`);
    }
    return parsed.data;
  }
}
