// The app's replays (issue 22, docs/evolution.md "Replay"): one run replayed on another definition
// of its workflow (a stored version, the workspace file, or the editor's unsaved draft), and the
// recent runs of a workflow replayed on a draft at once. Routes `runs.replay` and `replays` of
// shared/api/routes.ts, made with callRoute: answers parsed with the route's schema, an error body
// an ApiError with the engine's words (a 409 `refused` for a replay of a replay, say).
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import type { ReplayBatchRequest, ReplayRequest } from '../../shared/api/replay-result.ts';
import type { RouteAnswerOf } from '../../shared/api/routes.ts';
import { routeClient } from './http.ts';

export class ReplayClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  /**
   * Replays run `runId` on `request.against`, in virtual time, from its recorded calls.
   *
   * @example
   * const r = await new ReplayClient(token).replayRun(runId, { against: { workflowId: 'record-update', version: 2 } });
   * r.verdict; // 'fixed'
   */
  replayRun(runId: string, request: ReplayRequest): Promise<RouteAnswerOf<'runs.replay'>> {
    return callRoute(this.client, 'runs.replay', { params: { id: runId }, body: request });
  }

  /** Replays the runs `request.filter` selects (newest first) on `request.against`: one row per run and the counts. */
  replayRuns(request: ReplayBatchRequest): Promise<RouteAnswerOf<'replays'>> {
    return callRoute(this.client, 'replays', { body: request });
  }
}
