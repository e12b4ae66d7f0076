// The one boundary between front ends (the CLI, the HTTP server, scenarios) and the engine:
// starting runs (validation, input check, workspace trust, definition snapshot, idempotent
// creation by key), forks, revisions, operator and task actions, events, resume, and the read
// models. Every command is parsed with its shared/api schema here, so a malformed value is
// refused with its field's path before anything is written. Front ends parse their own syntax
// and print; the decisions live here. Errors are ServiceErrors, never CLI wording or flags.
//
// Over 400 lines: one method per command of the boundary, each short; the work is in the modules
// it imports, and front ends need the one class to reach all of them.
import { OpenArtifactCommand, type OpenedArtifact } from '../../shared/api/artifact-open.ts';
import { artifactAtPath } from './artifact-open.ts';
import { refuseUnlessOpener } from './sensitive-opener-check.ts';
import { loadWorkspacePolicy } from '../policy/load-policy.ts';
import type { PolicySnapshot } from '../../shared/policy/policy-schema.ts';
import { policyStartRefusal } from '../../shared/policy/check-policy.ts';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ForkCommand, ReviseCommand, type ReviseOutcome, type RevisePlan, type RevisePlanStep } from '../../shared/api/input-commands.ts';
import { RunAction, type RunActionResult } from '../../shared/api/run-action.ts';
import { SendEventCommand } from '../../shared/api/send-event-command.ts';
import { StartRunCommand } from '../../shared/api/start-run-command.ts';
import { RunDefinitionCommand } from '../../shared/api/forwarded-command.ts';
import { TaskAction } from '../../shared/api/task-action.ts';
import type { RunState } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { hasErrors } from '../../shared/validator/diagnostic.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';
import type { Engine } from '../runtime/engine.ts';
import { systemClock, systemRandom, type Clock } from '../time/clock.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import { forkPlan } from '../runtime/fork-plan.ts';
import { planRevision } from '../runtime/revision-plan.ts';
import { revisionRebill } from '../runtime/rebill-plan.ts';
import { migrateRuns, type MigrateOptions, type MigrationTarget } from '../evolution/migration-apply.ts';
import { MigrateCommand, type MigrationReport } from '../../shared/api/migration.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { Timeline } from '../../shared/api/timeline.ts';
import type { RunValue, RunValueQuery } from '../../shared/api/run-value.ts';
import type { Store } from '../store/store.ts';
import type { RunListFilter } from '../store/run-list.ts';
import type { WorkflowReport } from '../metrics/stats.ts';
import { eventPageOf, runDetailOf, runSummaryPage, statsOf, stepAttemptsOf, timelineOf, type DetailCut, type StatsAsk } from './read-model.ts';
import type { StepAttemptsPage, StepAttemptsQuery } from '../../shared/api/step-attempts.ts';
import type { RunSummaryPage } from '../../shared/api/run-summary.ts';
import type { TaskSummary } from '../../shared/api/task-summary.ts';
import type { ProviderCircuits } from '../../shared/api/provider-circuits.ts';
import type { ValidateResult, WorkflowDetail, WorkflowSource, WorkflowSummary, WorkflowVersionDetail } from '../../shared/api/workflow-views.ts';
import { locateFinding } from '../../shared/definition/json-path-locator.ts';
import { MAX_DEFINITION_BYTES } from '../definition/load-definition-file.ts';
import { ValidateRequest } from '../../shared/api/validate-request.ts';
import { RunReader } from './run-reader.ts';
import { checkRunInput } from './run-input-check.ts';
import { requirePrices } from '../cost/require-prices.ts';
import { StoreError } from '../store/store-error.ts';
import { ServiceError } from './service-error.ts';
import { parseCommand, type CommandInput } from './parse-command.ts';
import { requireTrust } from './workspace-trust.ts';
import { WorkspaceFiles } from './workspace-files.ts';
import { summaryOf } from './workflow-summary.ts';
import { WorkflowFileService } from './workflow-file-service.ts';
import { WorkflowTemplates } from './workflow-templates.ts';
import { fileHash } from './file-hash.ts';
import { pauseAt } from './test-pause.ts';
import { checkDebug } from './debug-settings.ts';
import { definitionToRun } from './definition-to-run.ts';
import { ReplayBatchRequest, ReplayRequest, type ReplayBatchResult, type ReplayFilter, type ReplayResult } from '../../shared/api/replay-result.ts';
import { replayRun, type ReplayAgainst } from '../evolution/replay-run.ts';
import { replayRuns } from '../evolution/replay-batch.ts';
import { replayAgainst, scriptFrom } from '../evolution/replay-against.ts';
import { ReplayScript } from '../../shared/scenario/replay-script.ts';
import type { Script } from '../scenario/scripted-executor.ts';
import { DEFAULT_REASON, defaultActor } from './who-acts.ts';
import type { RunDebugSettings } from '../../shared/events/run-event.ts';

/** A run the service has checked and may start: valid, input checked, workspace trusted. */
export interface CheckedStart {
  workflow: Workflow;
  input: unknown;
  workspaceDir: string;
  /** The workspace policy the run will start under (weft.policy.json), read when the start was checked. */
  policy: PolicySnapshot | undefined;
}

export interface EngineServiceOptions {
  /** The engine's clock: definition snapshots and events are stamped with it. */
  clock?: Clock;
  /** Who acts when a command names nobody (`by`); who-acts.ts's default ($WEFT_USER, else $USER, else the OS user) unless given. */
  actor?: string;
  /** The folder of workflow templates a new workflow can start from (Weft's examples/). */
  templatesDir?: string;
  /** The policy a new run (a fork) of a workspace starts under; default: its weft.policy.json (a scenario gives its own). */
  policyOf?: (workspaceDir: string) => PolicySnapshot | undefined;
}

/**
 * Checks a run before any store is opened: the input against the workflow's input schema, and,
 * for a workflow that runs code, that its workspace is trusted. `weft run` calls this before it
 * creates a store, so a refused run leaves no store behind.
 *
 * @example
 * const start = checkStart(workflow, dirname(file), { orderId: 'A17' });
 * await service.startChecked(start, { key: 'A17' });
 */
export function checkStart(workflow: Workflow, workspaceDir: string, input: unknown, env: NodeJS.ProcessEnv = process.env): CheckedStart {
  return checkParsedStart(workflow, workspaceDir, parseCommand(StartRunCommand.shape.input, input, 'the input'), env);
}

/** checkStart for an input its command's schema has parsed already. */
function checkParsedStart(workflow: Workflow, workspaceDir: string, input: StartRunCommand['input'], env: NodeJS.ProcessEnv): CheckedStart {
  checkRunInput(workflow, input);
  requireTrust(workflow, workspaceDir, env);
  requirePrices(workflow, workspaceDir);
  const policy = loadWorkspacePolicy(workspaceDir);
  refuseByPolicy(workflow, policy);
  return { workflow, input, workspaceDir, policy };
}

/** A start whose definition breaks the policy it would run under is refused, naming each rule and step. */
function refuseByPolicy(workflow: Workflow, policy: PolicySnapshot | undefined): void {
  const refusal = policyStartRefusal(workflow, policy?.rules);
  if (refusal !== undefined) throw new ServiceError('refused', refusal.message);
}

export class EngineService {
  private workspaceFiles: WorkspaceFiles | undefined;
  readonly reader: RunReader;
  private readonly clock: Clock;
  private readonly actor: string;
  private readonly policyOf: (workspaceDir: string) => PolicySnapshot | undefined;

  /** Who acts when a command names nobody ($WEFT_USER, else $USER, else the OS user, unless the options named one). */
  get defaultActor(): string {
    return this.actor;
  }
  private readonly templatesDir: string | undefined;
  private fileService: WorkflowFileService | undefined;

  constructor(
    private readonly store: Store,
    private readonly engine: Engine,
    private readonly workspace?: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    options: EngineServiceOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.actor = options.actor ?? defaultActor(env);
    this.reader = new RunReader(store, this.clock, engine.artifacts);
    this.templatesDir = options.templatesDir;
    this.policyOf = options.policyOf ?? loadWorkspacePolicy;
    if (workspace !== undefined) this.workspaceFiles = new WorkspaceFiles(workspace);
  }

  /** The workspace's workflow files (the server's Workflows list); only for a service given a workspace. */
  get files(): WorkspaceFiles {
    if (this.workspaceFiles === undefined) this.workspaceFiles = new WorkspaceFiles(this.workspace ?? '.');
    return this.workspaceFiles;
  }

  /** Saving, creating, renaming, importing, exporting and deleting workflow files (the app's editor). */
  get workflowFiles(): WorkflowFileService {
    this.fileService ??= new WorkflowFileService(this.files, this.store.definitions, this.clock, new WorkflowTemplates(this.templatesDir));
    return this.fileService;
  }

  // ---- workflows ----

  async workflowList(): Promise<WorkflowSummary[]> {
    return (await this.files.list()).map((f) => summaryOf(f.file, f.workflow, f.diagnostics));
  }

  async workflowDetail(id: string): Promise<WorkflowDetail> {
    const f = await this.files.byId(id);
    // Runs started a moment ago are counted: their rows are in the engine's next batch.
    this.engine.flush();
    let hash: string | undefined;
    try {
      hash = fileHash(readFileSync(this.files.resolveInside(f.file)));
    } catch {
      hash = undefined;
    }
    return {
      summary: summaryOf(f.file, f.workflow, f.diagnostics),
      definition: f.workflow ?? null,
      diagnostics: f.diagnostics,
      versions: this.store.definitions.history(id),
      ...(hash === undefined ? {} : { fileHash: hash }),
    };
  }

  /** A workspace file's text with its findings placed in it: how the app shows why a file does not parse. */
  async workflowSource(file: string): Promise<WorkflowSource> {
    const found = (await this.files.list()).find((f) => f.file === file);
    if (found === undefined) throw new ServiceError('not-found', `no workflow file "${file.slice(0, 200)}" in the workspace ${this.files.root}; GET /api/workflows lists its files`, 'file');
    let text: string | null = null;
    try {
      const full = this.files.resolveInside(found.file);
      if (statSync(full).size <= MAX_DEFINITION_BYTES) text = readFileSync(full, 'utf8');
    } catch {
      text = null;
    }
    const findings = found.diagnostics.map((diagnostic) => ({ diagnostic, at: (text === null ? undefined : locateFinding(text, diagnostic)) ?? null }));
    return { file: found.file, text, findings };
  }

  /** A version the store holds, run or saved (the run snapshot is immutable). */
  storedVersion(id: string, version: number): Workflow {
    return this.storedVersionDetail(id, version).definition;
  }

  /**
   * A stored version to start: one that has run already, or a saved one that validates (the
   * editor saves work in progress, which must not run).
   */
  private runnableVersion(id: string, version: number): Workflow {
    const stored = this.storedVersionDetail(id, version);
    if (stored.source === 'saved') {
      const first = validateDefinitionText(JSON.stringify(stored.definition)).diagnostics.find((d) => d.severity === 'error');
      if (first !== undefined) throw new ServiceError('bad-input', `workflow "${id}" v${version} was saved with errors and has never run; nothing was run (${first.code}: ${first.message})`, 'version');
    }
    return stored.definition;
  }

  storedVersionDetail(id: string, version: number): WorkflowVersionDetail {
    const found = this.store.definitions.version(id, version);
    if (found === undefined) throw new ServiceError('not-found', `workflow "${id}" v${version} has never run or been saved in this store; GET /api/workflows/${id} lists its versions`);
    const { workflow, ...record } = found;
    return { id, ...record, definition: workflow };
  }

  /** `POST /api/validate`: the validator's findings on a definition sent as file text or as a value. */
  validate(request: CommandInput<typeof ValidateRequest>): ValidateResult {
    const r = parseCommand(ValidateRequest, request, 'the request');
    const { diagnostics } = validateDefinitionText(r.text ?? JSON.stringify(r.definition));
    return { valid: !hasErrors(diagnostics), diagnostics };
  }

  // ---- starting runs ----

  /** Starts a run of a workspace workflow (by id); `created` is false when the key named an earlier run. */
  async startRun(request: CommandInput<typeof StartRunCommand>): Promise<{ runId: string; state: RunState; created: boolean }> {
    const command = parseCommand(StartRunCommand, request, 'the request');
    const file = await this.files.byId(command.workflow);
    let workflow = file.workflow;
    if (workflow === undefined || hasErrors(file.diagnostics)) {
      const first = file.diagnostics.find((d) => d.severity === 'error');
      throw new ServiceError('bad-input', `${file.file} is not a valid workflow; nothing was run${first ? ` (${first.code}: ${first.message})` : ''}`, 'workflow');
    }
    if (command.version !== undefined && command.version !== workflow.version) workflow = this.runnableVersion(command.workflow, command.version);
    const start = checkParsedStart(workflow, dirname(join(this.files.root, file.file)), command.input, this.env);
    const debug = checkDebug(workflow, command.debug);
    return this.startParsed(start, { key: command.key, priority: command.priority, budget: command.budget, ...(debug === undefined ? {} : { debug }) });
  }

  /**
   * Starts a run of a definition sent as content (a terminal's `weft run FILE` on the store a
   * `weft serve` owns): from the folder of the workspace file with that content, or, for a
   * definition that reads no folder, as it is (definition-to-run.ts). Checked as startRun checks.
   */
  async startDefinition(request: CommandInput<typeof RunDefinitionCommand>): Promise<{ runId: string; state: RunState; created: boolean }> {
    const command = parseCommand(RunDefinitionCommand, request, 'the request');
    const { workflow, folder } = await definitionToRun(this.files, command.definition);
    const start = checkParsedStart(workflow, folder, command.input, this.env);
    const debug = checkDebug(workflow, command.debug);
    return this.startParsed(start, { key: command.key, priority: command.priority, budget: command.budget, ...(debug === undefined ? {} : { debug }) });
  }

  /**
   * Stores the definition snapshot and starts the run, unless `key` names a run of the workflow
   * created earlier: then that run is loaded (and so driven on) and answered instead.
   */
  startChecked(start: CheckedStart, options: { key?: string | undefined; priority?: number | undefined; budget?: number | undefined; debug?: RunDebugSettings } = {}): { runId: string; state: RunState; created: boolean } {
    const { key, priority, budget } = parseCommand(StartRunCommand.pick({ key: true, priority: true, budget: true }), { key: options.key, priority: options.priority, budget: options.budget }, 'the request');
    return this.startParsed(start, { key, priority, budget, ...(options.debug === undefined ? {} : { debug: options.debug }) });
  }

  /** startChecked for a key, priority and budget their command's schema has parsed already. */
  private startParsed(start: CheckedStart, options: { key?: string | undefined; priority?: number | undefined; budget?: number | undefined; debug?: RunDebugSettings }): { runId: string; state: RunState; created: boolean } {
    const { key, priority, budget, debug } = options;
    const hash = this.store.saveDefinition(start.workflow, this.clock.now());
    // The key is looked up in the runs' rows, which the engine writes in batches: a run started a
    // moment ago with the same key (two requests in a row) must be in them, or it would be made twice.
    if (key !== undefined) this.engine.flush();
    const earlier = key === undefined ? undefined : this.store.runByKey(start.workflow.id, key);
    if (earlier !== undefined) {
      this.engine.load(earlier);
      return { runId: earlier, state: this.runState(earlier), created: false };
    }
    const runId = this.engine.startRun({
      workflow: start.workflow,
      definitionHash: hash,
      input: start.input,
      workspaceDir: start.workspaceDir,
      ...(key === undefined ? {} : { key }),
      ...(priority === undefined ? {} : { priority }),
      ...(budget === undefined ? {} : { budget }),
      ...(debug === undefined ? {} : { debug }),
      ...(start.policy === undefined ? {} : { policy: start.policy }),
    });
    return { runId, state: this.runState(runId), created: true };
  }

  /** A new run of RUN's definition version from step `from`, reusing the evidence of every step not downstream of it. */
  fork(idOrPrefix: string, command: CommandInput<typeof ForkCommand>): { runId: string; state: RunState } {
    return this.forkParsed(idOrPrefix, parseCommand(ForkCommand, command, 'the fork'));
  }

  private forkParsed(idOrPrefix: string, f: ForkCommand): { runId: string; state: RunState } {
    const source = this.reader.fold(this.resolveRun(idOrPrefix));
    const input = f.input === undefined ? source.input : f.input;
    checkRunInput(source.workflow, input);
    const plan = forkPlan(source, f.from);
    // A fork is a new run: it starts under the workspace's policy as it is now, if its definition keeps it.
    const policy = this.policyOf(source.workspaceDir);
    refuseByPolicy(source.workflow, policy);
    const runId = this.engine.startRun({
      workflow: source.workflow,
      definitionHash: source.definitionHash,
      input,
      workspaceDir: source.workspaceDir,
      forkOf: { runId: source.runId, fromStep: f.from },
      importEvidence: plan.evidence,
      importUnknowns: plan.unknowns,
      policy,
    });
    return { runId, state: this.runState(runId) };
  }

  /**
   * Moves runs (ids or unique prefixes) to another version of their workflow (weft migrate):
   * each is planned, and unless `dryRun` the safe ones are applied, one run_migrated event each
   * (engine/evolution/migration-apply.ts). `byVersion` instead names every unfinished run of
   * WORKFLOW at VERSION. A bad `map` is refused (bad-input) before anything moves.
   */
  async migrate(runs: readonly string[] | { workflowId: string; version?: number }, target: MigrationTarget, o: Omit<MigrateOptions, 'by'> & { by?: string }): Promise<MigrationReport> {
    const ids = 'workflowId' in runs ? this.unfinishedRunsOf(runs.workflowId, runs.version, target) : runs.map((r) => this.resolveRun(r));
    try {
      return await migrateRuns({ store: this.store, engine: this.engine, fold: (id) => this.reader.fold(id), now: () => this.clock.now() }, ids, target, { ...o, by: o.by ?? this.actor });
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('--map')) throw new ServiceError('bad-input', e.message);
      throw e;
    }
  }

  /**
   * A migration asked for over the API (`POST /api/runs/:id/migrate`, `POST /api/workflows/:id/migrate`):
   * the body is a MigrateCommand, parsed here; the target is a version stored here. For a
   * workflow, every unfinished run of `fromVersion` (default: of any version but the target).
   */
  async migrateRequest(runs: readonly string[] | { workflowId: string }, command: CommandInput<typeof MigrateCommand>): Promise<MigrationReport> {
    const c = parseCommand(MigrateCommand, command, 'the migration');
    const which = 'workflowId' in runs ? { workflowId: runs.workflowId, ...(c.fromVersion === undefined ? {} : { version: c.fromVersion }) } : runs;
    return this.migrate(which, { kind: 'version', version: c.toVersion }, {
      ...(c.map === undefined ? {} : { map: c.map }),
      ...(c.decide === undefined ? {} : { decide: c.decide }),
      ...(c.dryRun === undefined ? {} : { dryRun: c.dryRun }),
      ...(c.by === undefined ? {} : { by: c.by }),
      ...(c.reason === undefined ? {} : { reason: c.reason }),
    });
  }

  private unfinishedRunsOf(workflowId: string, version: number | undefined, target: MigrationTarget): string[] {
    const to = target.kind === 'version' ? target.version : target.workflow.version;
    const unfinished = new Set(this.store.unfinishedRunIds());
    return this.store.runIdsOfWorkflow(workflowId, version).filter((id) => unfinished.has(id) && (version !== undefined || this.store.getRun(id)?.version !== to));
  }

  /**
   * A new input revision. The input is checked and the plan made from the log as it was before
   * the engine loads (and so recovers) the run; the revision is applied at once (a scenario acts
   * at one virtual instant) and the plan worked out from that snapshot afterwards. `dryRun`
   * answers only the plan and changes nothing.
   */
  async revise(idOrPrefix: string, command: CommandInput<typeof ReviseCommand>): Promise<ReviseOutcome | RevisePlan> {
    return this.reviseParsed(idOrPrefix, parseCommand(ReviseCommand, command, 'the revision'));
  }

  private async reviseParsed(idOrPrefix: string, r: ReviseCommand): Promise<ReviseOutcome | RevisePlan> {
    const runId = this.resolveRun(idOrPrefix);
    if (r.dryRun === true) return this.reader.revisePlan(runId, r.input);
    const before = this.reader.fold(runId);
    checkRunInput(before.workflow, r.input);
    this.engine.load(runId);
    this.engine.revise(runId, r.input);
    const state = this.runState(runId);
    const planned = await planRevision(before, indexDefinition(before.workflow), r.input);
    const plan: RevisePlanStep[] = planned.steps;
    return { runId, state, inputRevision: planned.inputRevision, plan, rebill: revisionRebill(before, plan) };
  }

  /**
   * Continues RUN (a paused one is resumed, by `by` for `reason`), or every unfinished run of the
   * store; answers the runs it drives, to wait for with settled().
   */
  async resume(idOrPrefix?: string, who: { by?: string | undefined; reason?: string | undefined } = {}): Promise<string[]> {
    if (idOrPrefix === undefined) {
      const ids = this.store.unfinishedRunIds();
      this.engine.recover();
      return ids;
    }
    const runId = this.resolveRun(idOrPrefix);
    const live = this.engine.load(runId);
    if (live.model.state === 'paused') await this.act(runId, { action: 'resume', by: who.by ?? this.actor, reason: who.reason ?? DEFAULT_REASON });
    return [runId];
  }

  // ---- replays (weft replay; engine/evolution/replay-run.ts) ----

  /** Replays a run on another definition in virtual time, answered only from its recordings, and stores it as a run of kind 'replay'. */
  replay(idOrPrefix: string, against: ReplayAgainst, script?: Script): Promise<ReplayResult> {
    this.engine.flush();
    return replayRun(this.store, idOrPrefix, against, { clock: this.clock, random: systemRandom, ...(script === undefined ? {} : { script }) });
  }

  /** Replays every run `filter` selects (newest first) on the same definition: a row per run and the counts. */
  replayMany(filter: ReplayFilter, against: ReplayAgainst, script?: Script): Promise<ReplayBatchResult> {
    this.engine.flush();
    return replayRuns(this.store, filter, against, { clock: this.clock, random: systemRandom, ...(script === undefined ? {} : { script }) });
  }

  /** `POST /api/runs/:id/replay`: the request's definition (a version, a workspace file, a draft) resolved, then replay. */
  async replayRequest(idOrPrefix: string, request: CommandInput<typeof ReplayRequest>): Promise<ReplayResult> {
    const command = parseCommand(ReplayRequest, request, 'the request');
    return this.replay(idOrPrefix, await replayAgainst(this.store, this.files, command.against), scriptFrom(fullScript(command.script)));
  }

  /** `POST /api/replays`: as replayRequest, for the runs of a filter. */
  async replayBatchRequest(request: CommandInput<typeof ReplayBatchRequest>): Promise<ReplayBatchResult> {
    const command = parseCommand(ReplayBatchRequest, request, 'the request');
    return this.replayMany(command.filter, await replayAgainst(this.store, this.files, command.against), scriptFrom(fullScript(command.script)));
  }

  // ---- reading ----

  runs(filter: RunListFilter): RunSummaryPage {
    // Runs started a moment ago are listed: their rows are in the engine's next batch.
    this.engine.flush();
    return runSummaryPage(this.store, filter, this.clock.now());
  }

  /**
   * The run's RunDetail (shared/run/run-detail.ts) with its definition snapshot, which the app
   * draws. With `elideOver`, values over that many bytes come as ElidedValue stubs (the server's
   * answer; the full values are fetched by path with runValue); with `latestAttempts`, only each
   * step's latest attempts, and its `attemptCount` where it has more (the server's summary).
   */
  runDetail(idOrPrefix: string, o: DetailCut = {}): RunDetail {
    return runDetailOf(this.reader, idOrPrefix, o);
  }

  /** A page of a step's attempts (GET /api/runs/:id/steps/:stepId/attempts; read-model.ts stepAttemptsOf). */
  stepAttempts(idOrPrefix: string, stepId: string, q: StepAttemptsQuery, elideOver: number): StepAttemptsPage {
    return stepAttemptsOf(this.reader, idOrPrefix, stepId, q, elideOver);
  }

  /**
   * Commits what the engine holds in its batch, and says what time it is by the service's clock:
   * a reader on another connection (the server's read worker) then answers as of this instant,
   * with every command already answered in what it reads (docs/server.md, read-your-writes).
   */
  committedNow(): number {
    this.engine.flush();
    return this.clock.now();
  }

  /** One value of a run by its value path, whole or level by level (RunReader.runValue). */
  runValue(idOrPrefix: string, q: RunValueQuery): RunValue {
    return this.reader.runValue(idOrPrefix, q);
  }

  /** Where the run's time went, as spans, with the totals of its metrics (shared/run/timeline.ts). */
  timeline(idOrPrefix: string): Timeline {
    return timelineOf(this.store, idOrPrefix, this.committedNow());
  }

  /** A page of a run's events; with `elide`, values in their data over that many bytes come as stubs. */
  events(idOrPrefix: string, after: number, limit: number, elide?: number): { events: RunEvent[]; next: number | null } {
    return eventPageOf(this.reader, idOrPrefix, after, limit, elide);
  }

  /** The circuits of the providers agent candidates call, as the engine holds them (GET /api/providers/circuits). */
  providerCircuits(): ProviderCircuits {
    return this.engine.providerCircuits();
  }

  tasks(): TaskSummary[] {
    return this.reader.openTasks();
  }

  /** The report GET /api/stats answers: figures over all runs, the newest `ask.runs` runs listed. */
  stats(workflowId: string, ask: StatsAsk = {}): WorkflowReport {
    return statsOf(this.store, workflowId, ask, this.committedNow());
  }

  // ---- actions ----

  /**
   * One operator action on a run (RunAction: pause, resume, cancel, retry, skip, resolve, keep,
   * revise, fork, note). The engine refuses what the run's or step's state does not permit, before
   * anything is written. The answer is the run's state right after the action (for fork, the new
   * run's; for revise, with its plan); wait with settled() for the run to settle.
   */
  async act(idOrPrefix: string, action: CommandInput<typeof RunAction>): Promise<RunActionResult> {
    const a = parseCommand(RunAction, action, 'the action');
    if (a.action === 'revise') return this.reviseParsed(idOrPrefix, a);
    if (a.action === 'fork') return this.forkParsed(idOrPrefix, a);
    const runId = this.resolveRun(idOrPrefix);
    const by = a.by ?? this.actor;
    if (a.action === 'note') {
      await this.engine.addNote(runId, a.step, a.text, by);
      return { runId, state: this.runState(runId) };
    }
    const reason = a.reason ?? DEFAULT_REASON;
    // The engine's action starts synchronously (scenarios rely on it to act at a virtual instant).
    switch (a.action) {
      case 'pause':
        await this.engine.pauseRun(runId, by, reason);
        break;
      case 'resume':
        await this.engine.unpauseRun(runId, by, reason);
        break;
      case 'cancel':
        await this.engine.cancelRun(runId, by, reason);
        break;
      case 'retry':
        await this.engine.retryStep(runId, a.step, by, reason, a.input === undefined ? undefined : { value: a.input });
        break;
      case 'skip':
        await this.engine.skipStep(runId, a.step, a.output, by, a.reason);
        break;
      case 'resolve':
        await this.engine.resolveStep(runId, a.step, a.as, by, reason, a.evidence);
        break;
      case 'keep':
        await this.engine.keepStep(runId, a.step, by, reason);
        break;
      case 'continue':
      case 'step':
        await this.engine.debugResume(runId, a.action, by, reason);
        break;
    }
    return { runId, state: this.runState(runId) };
  }

  /**
   * The value of the artifact reference at `o.path` in the run (docs/long-running.md). Opening a
   * sensitive value is for the workspace policy's openers (refused otherwise, nothing recorded),
   * and is recorded first (artifact_opened, by `o.by`): no value leaves unrecorded.
   */
  async openArtifact(idOrPrefix: string, o: CommandInput<typeof OpenArtifactCommand>): Promise<OpenedArtifact> {
    const c = parseCommand(OpenArtifactCommand, o, 'the request');
    const runId = this.resolveRun(idOrPrefix);
    const model = this.reader.fold(runId);
    const at = artifactAtPath(model, this.engine.artifacts, c.path);
    const { ref, path } = at;
    const recorded = ref.$artifact.sensitive === true;
    const by = c.by ?? this.actor;
    if (recorded) refuseUnlessOpener(model.workspaceDir, by);
    const value = at.value === undefined ? this.engine.artifacts.read(ref) : at.value.inside;
    if (recorded) await this.engine.artifactOpened(runId, { sha256: ref.$artifact.sha256, path, by });
    return { runId, path, artifact: ref.$artifact, value, recorded };
  }

  /** A person's answer to the task of step `stepId`: approve, reject or reassign. */
  async decide(idOrPrefix: string, stepId: string, answer: CommandInput<typeof TaskAction>): Promise<{ runId: string; state: RunState }> {
    const a = parseCommand(TaskAction, answer, 'the answer');
    const runId = this.resolveRun(idOrPrefix);
    const by = a.by ?? this.actor;
    if (a.action === 'reassign') await this.engine.reassignTask(runId, stepId, a.to, by);
    else if (a.action === 'approve') {
      await this.engine.decideTask(runId, stepId, {
        decision: 'approved',
        by,
        ...(a.data === undefined ? {} : { data: a.data }),
        ...(a.choice === undefined ? {} : { choice: a.choice }),
      });
    } else await this.engine.decideTask(runId, stepId, { decision: 'rejected', by, reason: a.reason });
    return { runId, state: this.runState(runId) };
  }

  /**
   * An event for the runs that wait (or will wait) for it. Only the run that receives it is
   * driven: loading another would recover it and start its due work (a timer, a retry), with one
   * exception: a run waiting for an event an earlier send stored but never delivered (that send
   * stopped between the two commits) gets it first. A run whose step waits later finds the kept
   * event when that step starts waiting. Refused, with nothing stored, when no unfinished run has
   * an event step for the name.
   */
  async sendEvent(event: CommandInput<typeof SendEventCommand>): Promise<{ id: string; status: 'delivered' | 'kept' | 'duplicate'; runId?: string }> {
    const e = parseCommand(SendEventCommand, event, 'the event');
    const id = e.id ?? randomUUID();
    const seen = this.store.hasExternalEvent(id);
    const { candidates, receiver } = seen ? { candidates: [], receiver: undefined } : this.reader.eventCandidates(e.name, e.key);
    if (!seen && candidates.length === 0) {
      throw new ServiceError('bad-input', `no unfinished run has an event step for "${e.name}"; nothing was stored (check the name, or start the run first)`, 'name');
    }
    // Events an earlier send stored but never delivered (it stopped in between) reach their
    // waiting runs first, oldest first: they were sent before this one.
    for (const runId of this.reader.runsAwaitingStoredEvents()) await this.engine.deliverStoredEvents(runId);
    if (receiver !== undefined) this.loadUnlessHeldElsewhere(receiver);
    const consumer = seen ? this.store.externalEventConsumer(id) : undefined;
    if (consumer !== undefined && this.store.getRun(consumer.runId) !== undefined) this.engine.load(consumer.runId);
    const result = await this.engine.sendEvent({ id, name: e.name, key: e.key, data: e.data ?? null, receivedAt: this.clock.now() }, () => pauseAt('send:event-stored', this.env));
    return { id, ...result };
  }

  /**
   * Loads a run to deliver to it; on a shared store (docs/scale-out.md) one that another live engine
   * drives stays there: the event is stored all the same, and that engine, poked, delivers it.
   */
  private loadUnlessHeldElsewhere(runId: string): void {
    try {
      this.engine.load(runId);
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'locked')) throw e;
    }
  }

  /** Resolves when the run has ended or only waiting work remains; its state then. */
  settled(runId: string): Promise<RunState> {
    return this.engine.settled(runId);
  }

  /** The run's state as the engine has it now (live model first, else the projection). */
  runState(runId: string): RunState {
    const live = this.engine.model(runId);
    if (live !== undefined) return live.state;
    return this.reader.storedState(runId);
  }

  /** A run id or prefix; a run the engine drives is found before its row is written. */
  private resolveRun(idOrPrefix: string): string {
    return this.engine.model(idOrPrefix) !== undefined ? idOrPrefix : this.store.resolveRunId(idOrPrefix);
  }
}

/** A request's script parsed with the full schema (its JSONata conditions checked), or undefined. */
function fullScript(script: unknown): ReplayScript | undefined {
  return script === undefined ? undefined : parseCommand(ReplayScript, script, 'the script');
}
