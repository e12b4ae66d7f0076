// The calls that act on runs: start one, send an operator action, answer a task, each a route of
// shared/api/routes.ts made with callRoute. Each command is checked with its route's body schema
// before it is sent (a bad shape says where, without a round trip) and each answer is parsed with
// the route's answer schema. A refusal (409 `refused`: the run's or step's state does not permit
// the action) becomes an ApiError whose message is the engine's reason.
import type { z } from 'zod';
import { badInput } from '../../shared/api/api-error.ts';
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import { RevisePlan, type ReviseCommand } from '../../shared/api/input-commands.ts';
import type { RunAction, RunActionResult } from '../../shared/api/run-action.ts';
import type { RebillEstimate, RebillQuery } from '../../shared/cost/rebill-estimate.ts';
import type { RunOutcome } from '../../shared/api/run-outcome.ts';
import type { RunScenarioView, SavedRunScenario } from '../../shared/api/run-scenario.ts';
import type { MigrationReport } from '../../shared/api/migration.ts';
import { ROUTES, type Routes } from '../../shared/api/routes.ts';
import type { TaskAction } from '../../shared/api/task-action.ts';
import { ApiError, routeClient, type FetchLike } from './http.ts';

/** The `fetch` the client calls; injected so tests can point it anywhere. */
export type { FetchLike };

/** True for the engine's "not in this state" answer, as opposed to a malformed request. */
export function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'refused';
}

/** The message to show for a failed action: the engine's own words when it gave some. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class RunActionsClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '', fetchFn?: FetchLike) {
    this.client = routeClient(token, base, fetchFn);
  }

  /**
   * Starts a run; the answer names it (or, for a `key` used before, the run that key started).
   *
   * @example
   * const { runId } = await actions.startRun({ workflow: 'research-review', input: { topic: 'durable runs' } });
   */
  startRun(command: z.input<Routes['runs.start']['body']>): Promise<RunOutcome> {
    return callRoute(this.client, 'runs.start', { body: check(ROUTES['runs.start'].body, command) });
  }

  /** The migration plan of the unfinished runs of a workflow (`dryRun`), or its application to the safe ones. */
  migrateWorkflow(workflowId: string, command: z.input<Routes['workflows.migrate']['body']>): Promise<MigrationReport> {
    return callRoute(this.client, 'workflows.migrate', { params: { id: workflowId }, body: check(ROUTES['workflows.migrate'].body, command) });
  }

  /** One operator action; for `fork` the answer names the new run, for `revise` it carries the plan. */
  runAction(runId: string, action: RunAction): Promise<RunActionResult> {
    return callRoute(this.client, 'runs.act', { params: { id: runId }, body: check(ROUTES['runs.act'].body, action) });
  }

  /** What a revision to `input` would do, step by step; nothing is written. */
  async revisePlan(runId: string, command: Omit<ReviseCommand, 'dryRun'>): Promise<RevisePlan> {
    const answer = await this.runAction(runId, { ...command, dryRun: true });
    const plan = RevisePlan.safeParse(answer);
    if (!plan.success) throw new ApiError(200, 'bad-answer', 'the engine answered a dry-run revision without its plan (is the app older or newer than the engine?)');
    return plan.data;
  }

  /** Which steps a retry or fork from `step`, or a replay, would bill again (docs/runs.md, "Billed again"); nothing is written. */
  rebill(runId: string, query: RebillQuery): Promise<RebillEstimate> {
    return callRoute(this.client, 'runs.rebill', { params: { id: runId }, query });
  }

  /** A person's answer to the task of `stepId`. */
  taskAction(runId: string, stepId: string, action: TaskAction): Promise<RunOutcome> {
    return callRoute(this.client, 'tasks.answer', { params: { runId, stepId }, body: check(ROUTES['tasks.answer'].body, action) });
  }

  /** The scenario made from a run that has ended (docs/evolution.md): a scenarios file holding it. */
  runScenario(runId: string): Promise<RunScenarioView> {
    return callRoute(this.client, 'runs.scenario', { params: { id: runId } });
  }

  /** Saves the run's scenario beside its workflow (NAME.scenarios/from-run-RUN.json); refused when saved before. */
  saveRunScenario(runId: string): Promise<SavedRunScenario> {
    return callRoute(this.client, 'runs.saveScenario', { params: { id: runId } });
  }
}

/** The command as the schema reads it, or an ApiError saying where it is wrong (as the server would). */
function check<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const body = badInput(parsed.error, 'the command');
  throw new ApiError(400, body.error.code, body.error.message, body.error.path);
}
