// One typed client for the engine's HTTP API. Every call carries the bearer token; an error
// body `{"error": {"code", "message", "path"?}}` becomes an ApiError with those fields.
import type { EventPage, Health, RunDetail, RunOutcome, RunSummaryPage, TaskSummary, WorkflowDetail, WorkflowSummary } from './api-types.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

export interface RunFilter {
  workflow?: string;
  state?: string;
  limit?: number;
}

export class ApiClient {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  health(): Promise<Health> {
    return this.get('/api/health');
  }

  workflows(): Promise<{ workflows: WorkflowSummary[] }> {
    return this.get('/api/workflows');
  }

  workflow(id: string): Promise<WorkflowDetail> {
    return this.get(`/api/workflows/${encodeURIComponent(id)}`);
  }

  runs(filter: RunFilter = {}): Promise<RunSummaryPage> {
    const q = new URLSearchParams();
    if (filter.workflow) q.set('workflow', filter.workflow);
    if (filter.state) q.set('state', filter.state);
    if (filter.limit) q.set('limit', String(filter.limit));
    const qs = q.toString();
    return this.get(`/api/runs${qs ? `?${qs}` : ''}`);
  }

  run(id: string): Promise<RunDetail> {
    return this.get(`/api/runs/${encodeURIComponent(id)}`);
  }

  events(id: string, after = 0, limit = 1000): Promise<EventPage> {
    return this.get(`/api/runs/${encodeURIComponent(id)}/events?after=${after}&limit=${limit}`);
  }

  tasks(): Promise<{ tasks: TaskSummary[] }> {
    return this.get('/api/tasks');
  }

  startRun(workflow: string, input: unknown): Promise<RunOutcome> {
    return this.post('/api/runs', { workflow, input });
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return this.read<T>(response);
  }

  private async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.base}${path}`, { headers: { authorization: `Bearer ${this.token}` } });
    return this.read<T>(response);
  }

  private async read<T>(response: Response): Promise<T> {
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = body !== null && typeof body === 'object' && 'error' in body ? (body.error as Record<string, unknown>) : {};
      throw new ApiError(
        response.status,
        typeof error['code'] === 'string' ? error['code'] : 'http_error',
        typeof error['message'] === 'string' ? error['message'] : `HTTP ${response.status}`,
        typeof error['path'] === 'string' ? error['path'] : undefined,
      );
    }
    return body as T;
  }
}
