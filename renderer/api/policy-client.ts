// The workspace policy over the API (docs/policies.md, docs/api.md "Policy"): routes `policy.get`
// and `policy.save` of shared/api/routes.ts, made with callRoute. The answer carries the file's
// text, the parsed policy when it is valid, and the workflows of the workspace that break it; a
// save of an invalid text is refused (400) with its findings.
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import type { RouteAnswerOf } from '../../shared/api/routes.ts';
import { routeClient } from './http.ts';

export class PolicyClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  /** weft.policy.json as it is (text null when there is none), its policy and what it finds in the workflows. */
  read(): Promise<RouteAnswerOf<'policy.get'>> {
    return callRoute(this.client, 'policy.get', {});
  }

  /** Writes the whole text; the server refuses an invalid policy, so the file is never left broken by the app. */
  write(text: string): Promise<RouteAnswerOf<'policy.save'>> {
    return callRoute(this.client, 'policy.save', { body: { text } });
  }
}
