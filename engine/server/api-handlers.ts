// The handlers of the API's routes (shared/api/routes.ts), by route id: each one line or two that
// hands the parsed path parameters and query, and the body as it came, to the service, which
// parses every command once and decides everything. Statuses other than 200 are set here (201
// for what a request created). Workflow files and the comparison have files of their own.
import { DETAIL_VALUE_LIMIT } from '../../shared/api/elided-value.ts';
import type { EngineService } from '../service/engine-service.ts';
import { performCommand } from '../service/perform-command.ts';
import type { ServedReads } from '../service/served-reads.ts';
import type { RouteHandlers } from './register-routes.ts';
import type { LiveWorkers, StoreKind } from '../../shared/api/health-info.ts';

/** What `GET /api/health` says about this server. */
export interface HealthFacts {
  version: string;
  workspace: string;
  /** The store as messages name it (describeStore: a file's path, or a PostgreSQL database without its password). */
  storePath: string;
  /** Which store it is; SQLite unless given. */
  storeKind?: StoreKind;
  /** On PostgreSQL: the engines alive on the store now (read at each request). */
  workers?: () => LiveWorkers;
  /** Who acts when a command names nobody (EngineService.actor). */
  user: string;
}

type OtherRoute = Exclude<keyof RouteHandlers, 'compare' | 'policy.get' | 'policy.save' | 'workflows.lessons' | 'workflows.addLesson' | 'runs.scenario' | 'runs.saveScenario' | 'runs.rebill' | 'templates.list' | `bulk.${'preview' | 'apply'}` | `workflows.${'create' | 'import' | 'save' | 'rename' | 'delete' | 'export'}`>;

/** `reads` answers the heavy reads off the engine's thread (served-reads.ts). */
export function apiHandlers(s: EngineService, reads: ServedReads, facts: HealthFacts): Pick<RouteHandlers, OtherRoute> {
  return {
    health: () => ({ version: facts.version, workspace: facts.workspace, store: facts.storePath, storeKind: facts.storeKind ?? 'sqlite', user: facts.user, ...(facts.workers === undefined ? {} : { workers: facts.workers() }) }),

    'workflows.list': async () => ({ workflows: await s.workflowList() }),
    'workflows.get': ({ params }) => s.workflowDetail(params.id),
    'workflows.source': ({ query }) => s.workflowSource(query.file),
    'workflows.version': ({ params }) => s.storedVersionDetail(params.id, params.version),
    validate: ({ body }) => s.validate(body),

    'runs.list': ({ query: q }) =>
      reads.runs({
        ...(q.workflow === undefined ? {} : { workflow: q.workflow }),
        ...(q.state === undefined ? {} : { state: q.state }),
        ...(q.after === undefined ? {} : { after: q.after }),
        ...(q.limit === undefined ? {} : { limit: q.limit }),
        ...(q.q === undefined ? {} : { q: q.q }),
        ...(q.kind === undefined ? {} : { kind: q.kind }),
        ...(q.version === undefined ? {} : { version: q.version }),
        ...(q.failingStep === undefined ? {} : { failingStep: q.failingStep }),
        ...(q.createdAfter === undefined ? {} : { createdAfterMs: Date.parse(q.createdAfter) }),
        ...(q.createdBefore === undefined ? {} : { createdBeforeMs: Date.parse(q.createdBefore) }),
      }),
    'runs.start': async ({ body }, answer) => {
      const started = await s.startRun(body);
      answer.status(started.created ? 201 : 200);
      return { runId: started.runId, state: started.state };
    },
    'runs.get': ({ params }) => reads.runDetail(params.id, DETAIL_VALUE_LIMIT),
    'runs.attempts': ({ params, query }) => reads.stepAttempts(params.id, params.stepId, query, DETAIL_VALUE_LIMIT),
    'runs.value': ({ params, query }) => reads.runValue(params.id, query),
    'runs.timeline': ({ params }) => reads.timeline(params.id),
    'runs.events': ({ params, query: q }) => reads.events(params.id, q.after ?? 0, q.limit ?? 1000, q.elide),
    // A value kept by reference, by its value path; a sensitive one's opening is recorded (docs/long-running.md).
    'runs.openArtifact': ({ params, body }) => s.openArtifact(params.id, body),
    // Every operator action, revise (with dryRun, a RevisePlan) and fork included, is the service's.
    'runs.act': async ({ params, body }, answer) => {
      const result = await s.act(params.id, body);
      // The service took the body, so its action is the one it names: a fork created a run.
      if (actionNamed(body.value) === 'fork') answer.status(201);
      return result;
    },
    // A replay is stored as a run of kind replay: 201, a run was created (two for a batch of two).
    'runs.replay': async ({ params, body }, answer) => {
      const result = await s.replayRequest(params.id, body);
      answer.status(201);
      return result;
    },
    replays: async ({ body }, answer) => {
      const result = await s.replayBatchRequest(body);
      answer.status(201);
      return result;
    },

    // A migration's plan (dryRun) or its application, for one run or every unfinished run of a workflow (engine/evolution).
    'runs.migrate': ({ params, body }) => s.migrateRequest([params.id], body),
    'workflows.migrate': ({ params, body }) => s.migrateRequest({ workflowId: params.id }, body),

    'tasks.list': () => ({ tasks: s.tasks() }),
    'tasks.answer': ({ params, body }) => s.decide(params.runId, params.stepId, body),
    'events.send': async ({ body }) => {
      const result = await s.sendEvent(body);
      return result.runId === undefined ? result : { ...result, state: s.runState(result.runId) };
    },
    commands: ({ body }) => performCommand(s, body),
    stats: ({ params, query }) => reads.stats(params.workflowId, query),
    // Held by the engine (not the store): answered on its thread, which is cheap (a few circuits).
    'providers.circuits': () => s.providerCircuits(),
  };
}

/** The `action` a request body names, read only after the service has parsed and accepted it. */
function actionNamed(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'action' in value ? value.action : undefined;
}
