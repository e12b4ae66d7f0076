// The one boundary between front ends (the HTTP server now; the CLI and scenarios next) and the
// engine: starting runs (validation, input check, workspace trust, definition snapshot,
// idempotent creation by key), operator and task actions, events, and the read models. Front
// ends parse and print; the decisions live here. Errors are ServiceErrors, never CLI wording.
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RunState } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { hasErrors, type Diagnostic } from '../../shared/validator/diagnostic.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';
import type { Engine } from '../runtime/engine.ts';
import { foldRun } from '../runtime/fold-run.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { Timeline } from '../../shared/api/timeline.ts';
import { openTasks } from '../../shared/run/open-tasks.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { checkAgainstSchema } from '../runtime/output-contract.ts';
import type { Store } from '../store/store.ts';
import { definitionVersions, listRunPage, type RunListFilter } from '../store/run-list.ts';
import { requireTrust } from '../cli/workspace-trust.ts';
import type { RunSummary, RunSummaryPage } from '../../shared/api/run-summary.ts';
import type { TaskSummary } from '../../shared/api/task-summary.ts';
import type { WorkflowDetail, WorkflowSummary } from '../../shared/api/workflow-views.ts';
import { ServiceError } from './service-error.ts';
import { WorkspaceFiles } from './workspace-files.ts';

export interface StartRunRequest {
  workflow: string;
  version?: number | undefined;
  input: unknown;
  key?: string | undefined;
  priority?: number | undefined;
}

export type RunAction =
  | { action: 'pause' | 'resume' | 'cancel'; by: string; reason: string }
  | { action: 'retry'; step: string; input?: unknown; by: string; reason: string }
  | { action: 'skip'; step: string; output: unknown; by: string; reason: string }
  | { action: 'resolve'; step: string; as: 'succeeded' | 'failed'; evidence?: unknown; by: string; reason: string };

export type TaskAction =
  | { action: 'approve'; data?: unknown; choice?: string | undefined; by: string; reason?: string | undefined }
  | { action: 'reject'; reason: string; by: string }
  | { action: 'reassign'; to: string; by: string };

const ENDED: readonly RunState[] = ['succeeded', 'failed', 'cancelled'];
const iso = (ms: number): string => new Date(ms).toISOString();

function summaryOf(file: string, workflow: Workflow | undefined, diagnostics: readonly Diagnostic[]): WorkflowSummary {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return {
    id: workflow?.id ?? null,
    file,
    version: workflow?.version ?? null,
    name: workflow?.name ?? null,
    stepCount: workflow?.steps.length ?? 0,
    errors,
    warnings: diagnostics.length - errors,
  };
}

export class EngineService {
  readonly files: WorkspaceFiles;

  constructor(
    private readonly store: Store,
    private readonly engine: Engine,
    workspace: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.files = new WorkspaceFiles(workspace);
  }

  // ---- workflows ----

  async workflowList(): Promise<WorkflowSummary[]> {
    return (await this.files.list()).map((f) => summaryOf(f.file, f.workflow, f.diagnostics));
  }

  async workflowDetail(id: string): Promise<WorkflowDetail> {
    const f = await this.files.byId(id);
    return { summary: summaryOf(f.file, f.workflow, f.diagnostics), definition: f.workflow ?? null, diagnostics: f.diagnostics, versions: definitionVersions(this.store.db, id) };
  }

  storedVersion(id: string, version: number): Workflow {
    const def = this.store.loadDefinition(id, version);
    if (def === undefined) throw new ServiceError('not-found', `workflow "${id}" v${version} has never run in this store`);
    return def.workflow;
  }

  storedVersionDetail(id: string, version: number): { id: string; version: number; definitionHash: string; savedAtMs: number; definition: Workflow } {
    const stored = definitionVersions(this.store.db, id).find((v) => v.version === version);
    return { id, ...(stored ?? { version, definitionHash: '', savedAtMs: 0 }), definition: this.storedVersion(id, version) };
  }

  validate(definition: unknown): ReturnType<typeof validateDefinitionText> {
    return validateDefinitionText(JSON.stringify(definition));
  }

  // ---- runs ----

  async startRun(request: StartRunRequest): Promise<{ runId: string; state: RunState; created: boolean }> {
    const file = await this.files.byId(request.workflow);
    let workflow = file.workflow;
    if (workflow === undefined || hasErrors(file.diagnostics)) {
      const first = file.diagnostics.find((d) => d.severity === 'error');
      throw new ServiceError('bad-input', `${file.file} is not a valid workflow; nothing was run${first ? ` (${first.code}: ${first.message})` : ''}`, 'workflow');
    }
    if (request.version !== undefined && request.version !== workflow.version) workflow = this.storedVersion(request.workflow, request.version);
    if (workflow.input !== undefined) {
      const problems = checkAgainstSchema(workflow.input, request.input);
      if (problems !== undefined) throw new ServiceError('bad-input', `the input does not match the input schema of workflow "${workflow.id}": ${problems}`, 'input');
    }
    const workspaceDir = dirname(join(this.files.root, file.file));
    requireTrust(workflow, workspaceDir, this.env);
    const hash = this.store.saveDefinition(workflow, Date.now());
    const earlier = request.key === undefined ? undefined : this.store.runByKey(workflow.id, request.key);
    if (earlier !== undefined) {
      this.engine.load(earlier);
      return { runId: earlier, state: this.runState(earlier), created: false };
    }
    const runId = this.engine.startRun({
      workflow,
      definitionHash: hash,
      input: request.input,
      workspaceDir,
      ...(request.key === undefined ? {} : { key: request.key }),
      ...(request.priority === undefined ? {} : { priority: request.priority }),
    });
    return { runId, state: this.runState(runId), created: true };
  }

  runs(filter: RunListFilter): RunSummaryPage {
    const { rows, next } = listRunPage(this.store.db, filter);
    return {
      runs: rows.map((r): RunSummary => {
        const ended = ENDED.includes(r.state);
        const failure = r.state === 'failed' || r.state === 'needs_attention' ? this.engine.runMetrics(r.id).failure : null;
        return {
          id: r.id,
          workflowId: r.workflowId,
          version: r.version,
          state: r.state,
          inputRevision: r.inputRevision,
          createdAt: iso(r.createdAt),
          startedAtMs: r.createdAt,
          updatedAtMs: r.updatedAt,
          endedAtMs: ended ? r.updatedAt : null,
          durationMs: Math.max(0, (ended ? r.updatedAt : Date.now()) - r.createdAt),
          failure: failure === null ? null : { step: failure.step, outcome: failure.outcome, reason: failure.reason },
          parentRunId: null,
        };
      }),
      next,
    };
  }

  /** The run's RunDetail (shared/run/run-detail.ts) with its definition snapshot, which the app draws. */
  runDetail(idOrPrefix: string): RunDetail {
    const model = foldRun(this.store, this.store.resolveRunId(idOrPrefix));
    return { ...runDetail(model), definition: model.workflow };
  }

  /** Where the run's time went, as spans, with the totals of its metrics (shared/run/timeline.ts). */
  timeline(idOrPrefix: string): Timeline {
    return this.engine.timeline(this.store.resolveRunId(idOrPrefix));
  }

  events(idOrPrefix: string, after: number, limit: number): { events: RunEvent[]; next: number | null } {
    const runId = this.store.resolveRunId(idOrPrefix);
    const events = this.store.readEvents(runId).filter((e) => e.seq > after).slice(0, limit + 1);
    const page = events.slice(0, limit);
    const last = page[page.length - 1];
    return { events: page, next: events.length > limit && last !== undefined ? last.seq : null };
  }

  tasks(): TaskSummary[] {
    return this.store.runsWithWaitingSteps().flatMap((id) => openTasks(foldRun(this.store, id)));
  }

  stats(workflowId: string, version?: number): ReturnType<Engine['workflowStats']> {
    if (!this.store.workflowVersions().has(workflowId)) throw new ServiceError('not-found', `workflow "${workflowId}" has no runs in this store`);
    return this.engine.workflowStats(workflowId, version);
  }

  // ---- actions ----

  async act(idOrPrefix: string, a: RunAction): Promise<{ runId: string; state: RunState }> {
    const runId = this.store.resolveRunId(idOrPrefix);
    this.engine.load(runId);
    switch (a.action) {
      case 'pause':
        await this.engine.pauseRun(runId, a.by, a.reason);
        break;
      case 'resume':
        await this.engine.unpauseRun(runId, a.by, a.reason);
        break;
      case 'cancel':
        await this.engine.cancelRun(runId, a.by, a.reason);
        break;
      case 'retry':
        await this.engine.retryStep(runId, a.step, a.by, a.reason, a.input === undefined ? undefined : { value: a.input });
        break;
      case 'skip':
        await this.engine.skipStep(runId, a.step, a.output, a.by, a.reason);
        break;
      case 'resolve':
        await this.engine.resolveStep(runId, a.step, a.as, a.by, a.reason, a.evidence);
        break;
    }
    return { runId, state: this.runState(runId) };
  }

  async decide(idOrPrefix: string, stepId: string, a: TaskAction): Promise<{ runId: string; state: RunState }> {
    const runId = this.store.resolveRunId(idOrPrefix);
    this.engine.load(runId);
    if (a.action === 'reassign') await this.engine.reassignTask(runId, stepId, a.to, a.by);
    else if (a.action === 'approve') {
      await this.engine.decideTask(runId, stepId, {
        decision: 'approved',
        by: a.by,
        ...(a.data === undefined ? {} : { data: a.data }),
        ...(a.choice === undefined ? {} : { choice: a.choice }),
        ...(a.reason === undefined ? {} : { reason: a.reason }),
      });
    } else await this.engine.decideTask(runId, stepId, { decision: 'rejected', by: a.by, reason: a.reason });
    return { runId, state: this.runState(runId) };
  }

  async sendEvent(e: { name: string; key: string; id?: string | undefined; data?: unknown }): Promise<{ id: string; status: 'delivered' | 'kept' | 'duplicate'; runId?: string }> {
    const id = e.id ?? randomUUID();
    const seen = this.store.hasExternalEvent(id);
    const candidates = seen ? [] : this.store.unfinishedRunIds().filter((runId) => {
      const row = this.store.getRun(runId);
      const def = row === undefined ? undefined : this.store.loadDefinition(row.workflowId, row.version);
      if (!def?.workflow.steps.some((s) => s.kind === 'event' && s.config.name === e.name)) return false;
      const m = foldRun(this.store, runId);
      return def.workflow.steps.some((s) => s.kind === 'event' && s.config.name === e.name && m.steps.get(s.id)?.state !== 'succeeded');
    });
    if (!seen && candidates.length === 0) {
      throw new ServiceError('bad-input', `no unfinished run has an event step for "${e.name}"; nothing was stored (check the name, or start the run first)`, 'name');
    }
    for (const runId of candidates) this.engine.load(runId);
    const result = await this.engine.sendEvent({ id, name: e.name, key: e.key, data: e.data ?? null, receivedAt: Date.now() });
    return { id, ...result };
  }

  /** The run's state as the engine has it now (live model first, else the projection). */
  runState(runId: string): RunState {
    const live = this.engine.model(runId);
    if (live !== undefined) return live.state;
    const row = this.store.getRun(runId);
    if (row === undefined) throw new ServiceError('not-found', `no run "${runId}" in this store`);
    return row.state;
  }
}
