// One typed client for the engine's HTTP API, built on the shared/api schemas: every answer is
// parsed with the schema of its route, so a mismatch between engine and app shows up as a clear
// error, not as a broken view. Every call carries the bearer token; an error body
// `{"error": {"code", "message", "path"?}}` becomes an ApiError with those fields.
import type { z } from 'zod';
import { ApiError, call } from './http.ts';
import { HealthInfo } from '../../shared/api/health-info.ts';
import { RunSummaryPage } from '../../shared/api/run-summary.ts';
import { TaskList } from '../../shared/api/task-summary.ts';
import { WorkflowDetail, WorkflowList, WorkflowVersionDetail } from '../../shared/api/workflow-views.ts';
import { RunRead } from './run-read.ts';

export { ApiError };


/** The runs list's filters (done by the server) and paging: `after` is the previous page's `next`. */
export interface RunFilter {
  workflow?: string;
  state?: string;
  /** Text the workflow id or run id contains. */
  q?: string;
  after?: string;
  limit?: number;
}

export class ApiClient {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  health(): Promise<HealthInfo> {
    return this.get('/api/health', HealthInfo);
  }

  workflows(): Promise<WorkflowList> {
    return this.get('/api/workflows', WorkflowList);
  }

  workflow(id: string): Promise<WorkflowDetail> {
    return this.get(`/api/workflows/${encodeURIComponent(id)}`, WorkflowDetail);
  }

  workflowVersion(id: string, version: number): Promise<WorkflowVersionDetail> {
    return this.get(`/api/workflows/${encodeURIComponent(id)}/versions/${version}`, WorkflowVersionDetail);
  }

  runs(filter: RunFilter = {}): Promise<RunSummaryPage> {
    const q = new URLSearchParams();
    if (filter.workflow) q.set('workflow', filter.workflow);
    if (filter.state) q.set('state', filter.state);
    if (filter.q) q.set('q', filter.q);
    if (filter.after) q.set('after', filter.after);
    if (filter.limit) q.set('limit', String(filter.limit));
    const qs = q.toString();
    return this.get(`/api/runs${qs ? `?${qs}` : ''}`, RunSummaryPage);
  }

  run(id: string): Promise<RunRead> {
    return this.get(`/api/runs/${encodeURIComponent(id)}`, RunRead);
  }

  tasks(): Promise<TaskList> {
    return this.get('/api/tasks', TaskList);
  }

  private get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
    return call(this.base, this.token, path, schema);
  }
}
