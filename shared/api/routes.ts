// Every route of the engine's API in one table: its method, path, path parameters, query, body and
// answer, each a zod schema of shared/api. The server registers its routes from this table
// (engine/server/register-routes.ts), a test checks each answer of a real server against it
// (test/server/route-answers.test.ts), and clients build their calls from it (call-route.ts).
// A route id is the name a handler and a client call use. docs/api.md lists the same routes.
import { OpenArtifactCommand, OpenedArtifact } from './artifact-open.ts';
import { ReplayBatchRequest, ReplayBatchResult, ReplayRequest, ReplayResult } from './replay-result.ts';
import { z } from 'zod';
import { ValidateRequest, ValidateResult, WorkflowDetail, WorkflowList, WorkflowSource, WorkflowSourceQuery, WorkflowVersionDetail } from './workflow-views.ts';
import { CreateWorkflowRequest, DeleteWorkflowResult, ImportWorkflowRequest, RenameWorkflowRequest, SaveWorkflowRequest, TemplateList, WorkflowFileResult } from './workflow-files.ts';
import { BulkRequest, BulkResult } from './bulk-action.ts';
import { AddLessonRequest, LessonsView } from './lessons.ts';
import { PolicyFileView, SavePolicyRequest } from './policy-file.ts';
import { CompareQuery, RunComparison } from './run-comparison.ts';
import { EventPageQuery, RunEventsPage } from './event-page.ts';
import { ForwardedCommand, FORWARDED_ANSWERS } from './forwarded-command.ts';
import { HealthInfo } from './health-info.ts';
import { ProviderCircuits } from './provider-circuits.ts';
import { JsonValue } from './json-value.ts';
import { RunAction, RunActionResult } from './run-action.ts';
import { RunDetail } from './run-detail.ts';
import { RebillEstimate, RebillQuery } from '../cost/rebill-estimate.ts';
import { RunOutcome } from './run-outcome.ts';
import { RunListQuery, RunSummaryPage } from './run-summary.ts';
import { RunValue, RunValueQuery } from './run-value.ts';
import { RunScenarioView, SavedRunScenario } from './run-scenario.ts';
import { StepAttemptsPage, StepAttemptsQuery } from './step-attempts.ts';
import { SendEventCommand, SendEventResult } from './send-event-command.ts';
import { StartRunCommand } from './start-run-command.ts';
import { StreamServerMessage, StreamSubscribe } from './stream-messages.ts';
import { TaskAction } from './task-action.ts';
import { TaskList } from './task-summary.ts';
import { Timeline } from './timeline.ts';
import { MigrateCommand, MigrationReport } from './migration.ts';
import { WorkflowReport } from './workflow-stats.ts';
import { RunParams, RunStepParams, StatsParams, StatsQuery, TaskParams, VersionParams, WorkflowParams } from './route-params.ts';
import type { Unparsed } from './unparsed.ts';

/** Path parameters or a query, with what they are called in an error (`the run id: $.id: …`). */
export interface RoutePart<S extends z.ZodType = z.ZodType> {
  schema: S;
  what: string;
}

/**
 * One route. `params` and `query` are `NONE` for a route that takes none (a query it does not
 * take is ignored); `body` is the schema of the JSON body, which the service parses (never the
 * server), or `NO_BODY`; `answer` the schema of a successful answer's body; `statuses` the
 * statuses of a success. `kind`: `json` (the default), `download` (the body is a file's bytes,
 * JSON, with a content-disposition) or `websocket` (`body` is each client message, `answer` each
 * server one).
 */
export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/api/${string}`;
  params: RoutePart;
  query: RoutePart;
  body: z.ZodType;
  answer: z.ZodType;
  statuses: readonly number[];
  kind?: 'json' | 'download' | 'websocket';
  /** A body limit of its own, in bytes (otherwise the server's, 4 MiB). */
  bodyLimit?: number;
}

/** The largest command body: a 16 MiB definition file and 16 MiB inputs, as JSON, with room for escapes. */
export const COMMAND_BODY_LIMIT = 64 * 1024 * 1024;

/** What a route without path parameters or without a query takes: nothing, whatever is sent. */
export const NONE = { schema: z.unknown().transform((): undefined => undefined), what: 'nothing' } as const satisfies RoutePart;

/** The body of a route that takes none. */
export const NO_BODY = z.undefined();

const run = { schema: RunParams, what: 'the run id' } as const;
const workflow = { schema: WorkflowParams, what: 'the workflow id' } as const;
const query = <S extends z.ZodType>(schema: S): RoutePart<S> => ({ schema, what: 'the query' });

/**
 * The routes, by id.
 *
 * @example
 * ROUTES['runs.get']; // { method: 'GET', path: '/api/runs/:id', params: …, answer: RunDetail, … }
 */
export const ROUTES = {
  health: { method: 'GET', path: '/api/health', params: NONE, query: NONE, body: NO_BODY, answer: HealthInfo, statuses: [200] },

  'workflows.list': { method: 'GET', path: '/api/workflows', params: NONE, query: NONE, body: NO_BODY, answer: WorkflowList, statuses: [200] },
  'workflows.get': { method: 'GET', path: '/api/workflows/:id', params: workflow, query: NONE, body: NO_BODY, answer: WorkflowDetail, statuses: [200] },
  'workflows.version': { method: 'GET', path: '/api/workflows/:id/versions/:version', params: { schema: VersionParams, what: 'the workflow version' }, query: NONE, body: NO_BODY, answer: WorkflowVersionDetail, statuses: [200] },
  'workflows.create': { method: 'POST', path: '/api/workflows', params: NONE, query: NONE, body: CreateWorkflowRequest, answer: WorkflowFileResult, statuses: [201] },
  'workflows.import': { method: 'POST', path: '/api/workflows/import', params: NONE, query: NONE, body: ImportWorkflowRequest, answer: WorkflowFileResult, statuses: [200, 201] },
  'workflows.save': { method: 'PUT', path: '/api/workflows/:id', params: workflow, query: NONE, body: SaveWorkflowRequest, answer: WorkflowFileResult, statuses: [200] },
  'workflows.rename': { method: 'POST', path: '/api/workflows/:id/rename', params: workflow, query: NONE, body: RenameWorkflowRequest, answer: WorkflowFileResult, statuses: [200] },
  'workflows.delete': { method: 'DELETE', path: '/api/workflows/:id', params: workflow, query: NONE, body: NO_BODY, answer: DeleteWorkflowResult, statuses: [200] },
  'workflows.export': { method: 'GET', path: '/api/workflows/:id/file', params: workflow, query: NONE, body: NO_BODY, answer: JsonValue, statuses: [200], kind: 'download' },
  'workflows.source': { method: 'GET', path: '/api/workflow-source', params: NONE, query: query(WorkflowSourceQuery), body: NO_BODY, answer: WorkflowSource, statuses: [200] },
  'templates.list': { method: 'GET', path: '/api/templates', params: NONE, query: NONE, body: NO_BODY, answer: TemplateList, statuses: [200] },
  'workflows.lessons': { method: 'GET', path: '/api/workflows/:id/lessons', params: workflow, query: NONE, body: NO_BODY, answer: LessonsView, statuses: [200] },
  'workflows.addLesson': { method: 'POST', path: '/api/workflows/:id/lessons', params: workflow, query: NONE, body: AddLessonRequest, answer: LessonsView, statuses: [201] },
  'policy.get': { method: 'GET', path: '/api/policy', params: NONE, query: NONE, body: NO_BODY, answer: PolicyFileView, statuses: [200] },
  'policy.save': { method: 'PUT', path: '/api/policy', params: NONE, query: NONE, body: SavePolicyRequest, answer: PolicyFileView, statuses: [200] },
  validate: { method: 'POST', path: '/api/validate', params: NONE, query: NONE, body: ValidateRequest, answer: ValidateResult, statuses: [200] },

  'runs.list': { method: 'GET', path: '/api/runs', params: NONE, query: query(RunListQuery), body: NO_BODY, answer: RunSummaryPage, statuses: [200] },
  'runs.start': { method: 'POST', path: '/api/runs', params: NONE, query: NONE, body: StartRunCommand, answer: RunOutcome, statuses: [200, 201] },
  'runs.get': { method: 'GET', path: '/api/runs/:id', params: run, query: NONE, body: NO_BODY, answer: RunDetail, statuses: [200] },
  'runs.attempts': { method: 'GET', path: '/api/runs/:id/steps/:stepId/attempts', params: { schema: RunStepParams, what: 'the run and step' }, query: query(StepAttemptsQuery), body: NO_BODY, answer: StepAttemptsPage, statuses: [200] },
  'runs.value': { method: 'GET', path: '/api/runs/:id/value', params: run, query: query(RunValueQuery), body: NO_BODY, answer: RunValue, statuses: [200] },
  'runs.timeline': { method: 'GET', path: '/api/runs/:id/timeline', params: run, query: NONE, body: NO_BODY, answer: Timeline, statuses: [200] },
  'runs.events': { method: 'GET', path: '/api/runs/:id/events', params: run, query: query(EventPageQuery), body: NO_BODY, answer: RunEventsPage, statuses: [200] },
  'runs.openArtifact': { method: 'POST', path: '/api/runs/:id/artifact', params: run, query: NONE, body: OpenArtifactCommand, answer: OpenedArtifact, statuses: [200] },
  'runs.act': { method: 'POST', path: '/api/runs/:id/actions', params: run, query: NONE, body: RunAction, answer: RunActionResult, statuses: [200, 201] },
  'runs.replay': { method: 'POST', path: '/api/runs/:id/replay', params: run, query: NONE, body: ReplayRequest, answer: ReplayResult, statuses: [201] },
  replays: { method: 'POST', path: '/api/replays', params: NONE, query: NONE, body: ReplayBatchRequest, answer: ReplayBatchResult, statuses: [201] },
  'runs.rebill': { method: 'GET', path: '/api/runs/:id/rebill', params: run, query: query(RebillQuery), body: NO_BODY, answer: RebillEstimate, statuses: [200] },
  'runs.scenario': { method: 'GET', path: '/api/runs/:id/scenario', params: run, query: NONE, body: NO_BODY, answer: RunScenarioView, statuses: [200] },
  'runs.saveScenario': { method: 'POST', path: '/api/runs/:id/scenario', params: run, query: NONE, body: NO_BODY, answer: SavedRunScenario, statuses: [201] },
  'bulk.preview': { method: 'POST', path: '/api/bulk/preview', params: NONE, query: NONE, body: BulkRequest, answer: BulkResult, statuses: [200] },
  'bulk.apply': { method: 'POST', path: '/api/bulk/apply', params: NONE, query: NONE, body: BulkRequest, answer: BulkResult, statuses: [200] },
  'runs.migrate': { method: 'POST', path: '/api/runs/:id/migrate', params: run, query: NONE, body: MigrateCommand, answer: MigrationReport, statuses: [200] },
  'workflows.migrate': { method: 'POST', path: '/api/workflows/:id/migrate', params: workflow, query: NONE, body: MigrateCommand, answer: MigrationReport, statuses: [200] },
  compare: { method: 'GET', path: '/api/compare', params: NONE, query: query(CompareQuery), body: NO_BODY, answer: RunComparison, statuses: [200] },

  'tasks.list': { method: 'GET', path: '/api/tasks', params: NONE, query: NONE, body: NO_BODY, answer: TaskList, statuses: [200] },
  'tasks.answer': { method: 'POST', path: '/api/tasks/:runId/:stepId', params: { schema: TaskParams, what: 'the task' }, query: NONE, body: TaskAction, answer: RunOutcome, statuses: [200] },
  'events.send': { method: 'POST', path: '/api/events', params: NONE, query: NONE, body: SendEventCommand, answer: SendEventResult, statuses: [200] },
  commands: {
    method: 'POST',
    path: '/api/commands',
    params: NONE,
    query: NONE,
    body: ForwardedCommand,
    answer: z.union([FORWARDED_ANSWERS.run, FORWARDED_ANSWERS.act, FORWARDED_ANSWERS.answer, FORWARDED_ANSWERS.send, FORWARDED_ANSWERS.resume]),
    statuses: [200],
    bodyLimit: COMMAND_BODY_LIMIT,
  },
  'providers.circuits': { method: 'GET', path: '/api/providers/circuits', params: NONE, query: NONE, body: NO_BODY, answer: ProviderCircuits, statuses: [200] },
  stats: { method: 'GET', path: '/api/stats/:workflowId', params: { schema: StatsParams, what: 'the workflow id' }, query: query(StatsQuery), body: NO_BODY, answer: WorkflowReport, statuses: [200] },

  stream: { method: 'GET', path: '/api/stream', params: NONE, query: NONE, body: StreamSubscribe, answer: StreamServerMessage, statuses: [101], kind: 'websocket' },
} as const satisfies Record<string, RouteSpec>;

export type Routes = typeof ROUTES;
export type RouteId = keyof Routes;

/** The routes answered over plain HTTP (all but the WebSocket). */
export type HttpRouteId = { [K in RouteId]: Routes[K] extends { kind: 'websocket' } ? never : K }[RouteId];

/** The parsed path parameters of route K (undefined for a route without any). */
export type RouteParamsOf<K extends RouteId> = z.infer<Routes[K]['params']['schema']>;
/** The parsed query of route K (undefined for a route without one). */
export type RouteQueryOf<K extends RouteId> = z.infer<Routes[K]['query']['schema']>;
/** The body of route K as the server hands it on to the service, unparsed. */
export type RouteBodyOf<K extends RouteId> = Unparsed<Routes[K]['body']>;
/** What route K answers on success. */
export type RouteAnswerOf<K extends RouteId> = z.infer<Routes[K]['answer']>;

/** Every route id, in the table's order. */
export const ROUTE_IDS: readonly RouteId[] = Object.keys(ROUTES).filter((k): k is RouteId => k in ROUTES);

function isHttpRoute(id: RouteId): id is HttpRouteId {
  const spec: RouteSpec = ROUTES[id];
  return spec.kind !== 'websocket';
}

/** The route ids a server answers over plain HTTP, in the table's order. */
export const HTTP_ROUTE_IDS: readonly HttpRouteId[] = ROUTE_IDS.filter(isHttpRoute);
