// The reads most pages show (health, workflows, runs, tasks), each a route of the one table
// (shared/api/routes.ts) called with callRoute: the answer is parsed with the route's schema, so a
// mismatch between engine and app shows up as a clear error, not as a broken view. Every call
// carries the bearer token; an error body `{"error": {"code", "message", "path"?}}` becomes an
// ApiError with those fields.
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import type { AddLessonRequest } from '../../shared/api/lessons.ts';
import type { RouteAnswerOf } from '../../shared/api/routes.ts';
import { RUN_STATES, type RunState } from '../../shared/definition/names.ts';
import { ApiError, routeClient } from './http.ts';

export { ApiError };

/** The runs list's filters (done by the server) and paging: `after` is the previous page's `next`. */
export interface RunFilter {
  workflow?: string;
  state?: string;
  /** Text the workflow id or run id contains. */
  q?: string;
  /** Runs of this version of their workflow. */
  version?: number;
  /** Failed or stuck runs that went wrong at this step. */
  failingStep?: string;
  /** Created at or after / before these times (ISO dates or date-times). */
  createdAfter?: string;
  createdBefore?: string;
  after?: string;
  limit?: number;
}

export class ApiClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  health(): Promise<RouteAnswerOf<'health'>> {
    return callRoute(this.client, 'health', {});
  }

  workflows(): Promise<RouteAnswerOf<'workflows.list'>> {
    return callRoute(this.client, 'workflows.list', {});
  }

  workflow(id: string): Promise<RouteAnswerOf<'workflows.get'>> {
    return callRoute(this.client, 'workflows.get', { params: { id } });
  }

  /** The workflow's lessons, from the lessons file beside it (a broken file says why in `problem`). */
  lessons(id: string): Promise<RouteAnswerOf<'workflows.lessons'>> {
    return callRoute(this.client, 'workflows.lessons', { params: { id } });
  }

  /** Records a lesson learnt from a run of the workflow; the answer is the file's lessons now. */
  addLesson(id: string, body: AddLessonRequest): Promise<RouteAnswerOf<'workflows.addLesson'>> {
    return callRoute(this.client, 'workflows.addLesson', { params: { id }, body });
  }

  /** A workspace file's text with its findings placed in it (a file that does not parse included). */
  workflowSource(file: string): Promise<RouteAnswerOf<'workflows.source'>> {
    return callRoute(this.client, 'workflows.source', { query: { file } });
  }

  workflowVersion(id: string, version: number): Promise<RouteAnswerOf<'workflows.version'>> {
    return callRoute(this.client, 'workflows.version', { params: { id, version } });
  }

  /** A page of runs; a filter left empty (or a limit of 0) is not sent. */
  async runs(filter: RunFilter = {}): Promise<RouteAnswerOf<'runs.list'>> {
    const query = {
      workflow: filter.workflow || undefined,
      state: filter.state ? runState(filter.state) : undefined,
      q: filter.q || undefined,
      after: filter.after || undefined,
      limit: filter.limit || undefined,
      version: filter.version || undefined,
      failingStep: filter.failingStep || undefined,
      createdAfter: filter.createdAfter || undefined,
      createdBefore: filter.createdBefore || undefined,
    };
    return callRoute(this.client, 'runs.list', { query });
  }

  run(id: string): Promise<RouteAnswerOf<'runs.get'>> {
    return callRoute(this.client, 'runs.get', { params: { id } });
  }

  /** A page of a step's attempts before place `before` (all, latest first, without it): the ones the run's detail leaves out. */
  stepAttempts(id: string, stepId: string, before: number | undefined, limit: number): Promise<RouteAnswerOf<'runs.attempts'>> {
    return callRoute(this.client, 'runs.attempts', { params: { id, stepId }, query: before === undefined ? { limit } : { before, limit } });
  }

  tasks(): Promise<RouteAnswerOf<'tasks.list'>> {
    return callRoute(this.client, 'tasks.list', {});
  }

  /** The circuit of each provider agent candidates call (docs/routing.md). */
  providerCircuits(): Promise<RouteAnswerOf<'providers.circuits'>> {
    return callRoute(this.client, 'providers.circuits', {});
  }
}

/** `state` as a run state, or the bad-input ApiError the engine would answer for it. */
function runState(state: string): RunState {
  const known = RUN_STATES.find((s) => s === state);
  if (known !== undefined) return known;
  throw new ApiError(400, 'bad-input', `the query: $.state: "${state}" is not a run state; use one of ${RUN_STATES.join(', ')}`, '$.state');
}
