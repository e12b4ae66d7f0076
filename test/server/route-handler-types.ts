// Type checks, run by `npm run typecheck` (not by vitest): the handler map of the route table is
// complete and typed. Each `@ts-expect-error` below must stay an error; if one stops being one
// (a route without a handler compiles, a handler may answer the wrong type, a body goes to a
// service method that parses it with another schema), tsc fails on the unused directive.
import type { EngineService } from '../../engine/service/engine-service.ts';
import type { RouteHandlers } from '../../engine/server/register-routes.ts';
import { apiHandlers } from '../../engine/server/api-handlers.ts';
import { bulkHandlers } from '../../engine/server/bulk-routes.ts';
import { workflowFileHandlers } from '../../engine/server/workflow-file-routes.ts';
import { scenarioHandlers } from '../../engine/server/scenario-routes.ts';
import { policyHandlers } from '../../engine/server/policy-routes.ts';
import { lessonsHandlers } from '../../engine/server/lessons-routes.ts';
import { JsonText } from '../../engine/service/json-text.ts';
import type { ServedReads } from '../../engine/service/served-reads.ts';
import type { WorkflowReport } from '../../shared/api/workflow-stats.ts';

declare const service: EngineService;
declare const reads: ServedReads;
const facts = { version: '0', workspace: '/w', storePath: '/w/weft.db', user: 'ana' };

// Complete: every route of the table has its handler.
export const complete: Omit<RouteHandlers, 'compare'> = { ...apiHandlers(service, reads, facts), ...workflowFileHandlers(service), ...scenarioHandlers(service), ...bulkHandlers(service), ...policyHandlers(service), ...lessonsHandlers(service) };

// @ts-expect-error a route without a handler (compare) is missing from the map
export const missing: RouteHandlers = { ...apiHandlers(service, reads, facts), ...workflowFileHandlers(service), ...scenarioHandlers(service), ...bulkHandlers(service), ...policyHandlers(service), ...lessonsHandlers(service) };

export const wrongAnswer: Pick<RouteHandlers, 'health'> = {
  // @ts-expect-error health answers HealthInfo, which has no `ok`
  health: () => ({ ok: true }),
};

export const wrongEncoded: Pick<RouteHandlers, 'runs.get'> = {
  // @ts-expect-error runs.get answers a RunDetail; JSON text of a WorkflowReport is not one
  'runs.get': () => new JsonText<WorkflowReport>('{}'),
};

export const wrongSchema: Pick<RouteHandlers, 'tasks.answer'> = {
  // @ts-expect-error the body of tasks.answer is a TaskAction; act parses a RunAction
  'tasks.answer': ({ params, body }) => service.act(params.runId, body),
};

export const wrongParams: Pick<RouteHandlers, 'runs.get'> = {
  // @ts-expect-error runs.get's params are {id}, not {runId}
  'runs.get': ({ params }) => service.runDetail(params.runId),
};
