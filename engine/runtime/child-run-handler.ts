// Child runs: subworkflow steps run one child run, map steps one per item with bounded
// concurrency; parent and child are linked both ways in their logs. The handler hears when a
// child ends (RunEndListener) and tells its parent's step.
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult } from '../executors/executor.ts';
import { evaluate } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import { checkAgainstSchema } from './output-contract.ts';
import { runRow } from './projections.ts';
import type { RunPort } from './run-port.ts';
import { currentAttempt, type RunModel, type StepRuntime } from '../../shared/run/run-model.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import type { AttemptStart, RunEndListener, StepHandler } from './step-handler.ts';
import { findWorkspaceWorkflow, type TrustCheck } from './workspace-workflows.ts';

/** Cancels a child run (an operator cancel by the engine); not awaited by the caller. */
export type CancelRun = (runId: string, why: string) => Promise<void>;

export class ChildRunHandler implements StepHandler, RunEndListener {
  constructor(
    private readonly port: RunPort,
    private readonly cancelRun: CancelRun,
    private readonly workspaceTrust: TrustCheck | undefined,
  ) {}

  /** Finds a workflow version: its stored snapshot, else a file of the run's workspace. */
  private childDefinition(live: LiveRun, ref: { id: string; version: number }): { workflow: Workflow; hash: string } {
    const stored = this.port.store.loadDefinition(ref.id, ref.version);
    if (stored) return stored;
    const found = findWorkspaceWorkflow(live.model.workspaceDir, ref.id, ref.version);
    const hash = this.port.store.saveDefinition(found, this.port.clock.now());
    return { workflow: found, hash };
  }

  async start(live: LiveRun, s: StepRuntime, step: Step, attempt: AttemptStart): Promise<void> {
    const done = (r: AttemptResult): Promise<void> => this.port.finish(live, { stepId: s.id, activation: s.activation, attempt: attempt.number, result: r });
    if (step.kind !== 'subworkflow' && step.kind !== 'map') return;
    let def: { workflow: Workflow; hash: string };
    try {
      def = this.childDefinition(live, step.config.workflow);
    } catch (e) {
      await done({ outcome: 'failed', code: 'workflow_not_found', message: (e as Error).message, retryable: false });
      return;
    }
    // A child runs its scripts and commands in the parent's workspace, which the parent's own
    // start did not check when the parent has no code steps of its own.
    try {
      this.workspaceTrust?.(def.workflow, live.model.workspaceDir, `step "${s.id}" of run ${live.model.runId}`);
    } catch (e) {
      await done({ outcome: 'failed', code: 'untrusted_workspace', message: (e as Error).message, retryable: false });
      return;
    }
    let items: unknown[] = [attempt.input];
    if (step.kind === 'map') {
      let value: unknown;
      try {
        value = await evaluate(step.config.items, attempt.ctx);
      } catch (e) {
        await done({ outcome: 'failed', code: 'invalid_items', message: (e as Error).message, retryable: false });
        return;
      }
      if (!Array.isArray(value)) {
        await done({ outcome: 'failed', code: 'invalid_items', message: `"items" gave ${value === undefined ? 'nothing' : typeof value}, not a list`, retryable: false });
        return;
      }
      items = value;
      if (items.length === 0) {
        await done({ outcome: 'succeeded', output: [] });
        return;
      }
    }
    for (const [k, item] of items.entries()) {
      const problems = def.workflow.input === undefined ? undefined : checkAgainstSchema(def.workflow.input, item);
      if (problems !== undefined) {
        await done({ outcome: 'failed', code: 'invalid_input', message: `${step.kind === 'map' ? `item ${k}` : 'the input'} does not match the input schema of "${def.workflow.id}": ${problems}`, retryable: false });
        return;
      }
    }
    live.childItems.set(s.id, { items, def });
    await this.topUp(live, s, step, attempt.number);
  }

  /** Starts child runs until the map's concurrency is used (a subworkflow has one child). */
  private async topUp(live: LiveRun, s: StepRuntime, step: Step, attempt: number): Promise<void> {
    const plan = live.childItems.get(s.id);
    if (plan === undefined || (step.kind !== 'map' && step.kind !== 'subworkflow')) return;
    const limit = step.kind === 'map' ? (step.config.concurrency ?? 4) : 1;
    let open = [...s.children.values()].filter((c) => c.state === null).length;
    for (let k = 0; k < plan.items.length && open < limit; k++) {
      if (s.children.has(k)) continue;
      const childRunId = this.port.startRun({
        workflow: plan.def.workflow,
        definitionHash: plan.def.hash,
        input: plan.items[k],
        workspaceDir: live.model.workspaceDir,
        parent: { runId: live.model.runId, stepId: s.id, activation: s.activation, attempt, ...(step.kind === 'map' ? { index: k } : {}) },
        // A child runs under the policy its parent started under, not the file as it is now.
        policy: live.model.policy,
      });
      this.port.emit(live, 'child_started', { childRunId, ...(step.kind === 'map' ? { index: k } : {}) }, { step: s.id, activation: s.activation, attempt, reason: `${plan.def.workflow.id} v${plan.def.workflow.version} run ${childRunId}${step.kind === 'map' ? ` for item ${k}` : ''}` });
      open++;
    }
  }

  /** A child run ended: its parent's step hears of it in the parent's next tick. */
  async runEnded(child: LiveRun): Promise<void> {
    const p = child.model.parent;
    if (p === undefined) return;
    let output: unknown = null;
    if (child.model.state === 'succeeded' && child.model.workflow.output !== undefined) {
      try {
        output = (await evaluate(child.model.workflow.output, this.port.context(child))) ?? null;
      } catch (e) {
        output = { error: (e as Error).message };
      }
    }
    let parent: LiveRun;
    try {
      parent = this.port.load(p.runId);
    } catch {
      return; // the parent is gone from this store: nothing to tell
    }
    const state = child.model.state;
    parent.actions.push(() => this.childFinished(parent, p, child.model.runId, state, output));
    this.port.markDirty(parent);
  }

  private async childFinished(live: LiveRun, p: NonNullable<RunModel['parent']>, childRunId: string, state: string, output: unknown): Promise<void> {
    const s = live.model.steps.get(p.stepId);
    const a = s === undefined ? undefined : currentAttempt(s);
    if (s === undefined || a === undefined || a.activation !== p.activation || a.number !== p.attempt || s.state !== 'waiting') return;
    const index = p.index ?? 0;
    if (s.children.get(index)?.state !== null) return; // already recorded
    const step = live.index.steps.get(s.id) as Step;
    this.port.emit(live, 'child_finished', { childRunId, state, ...(output === null ? {} : { output }), ...(p.index === undefined ? {} : { index: p.index }) }, { step: s.id, activation: a.activation, attempt: a.number, reason: `child run ${childRunId} ${state}` });
    const done = (r: AttemptResult): Promise<void> => this.port.finish(live, { stepId: s.id, activation: a.activation, attempt: a.number, result: r });
    if (step.kind === 'subworkflow') {
      await done(state === 'succeeded' ? { outcome: 'succeeded', output } : { outcome: 'failed', code: `child_${state}`, message: `child run ${childRunId} ended ${state}`, retryable: true });
      return;
    }
    if (step.kind !== 'map') return;
    if (state !== 'succeeded' && step.config.onItemFailure !== 'continue') {
      this.stop(live, s, `item ${index} of "${s.id}" ended ${state}`);
      await done({ outcome: 'failed', code: 'item_failed', message: `item ${index} (run ${childRunId}) ended ${state}`, retryable: true });
      return;
    }
    const plan = live.childItems.get(s.id) ?? { items: await this.mapItems(live, step), def: this.childDefinition(live, step.config.workflow) };
    live.childItems.set(s.id, plan);
    const finished = [...s.children.values()].filter((c) => c.state !== null).length;
    if (finished >= plan.items.length) {
      const results = plan.items.map((_, k) => {
        const c = s.children.get(k);
        return c?.state === 'succeeded' ? (c.output ?? null) : { error: `item ${k} ended ${c?.state ?? 'unknown'}`, runId: c?.runId ?? null };
      });
      await done({ outcome: 'succeeded', output: results });
      return;
    }
    await this.topUp(live, s, step, a.number);
  }

  /** Cancels a step's unfinished child runs (not awaited: each applies in its own tick). */
  stop(_live: LiveRun, s: StepRuntime, why: string): void {
    for (const c of s.children.values()) {
      if (c.state === null) void this.cancelRun(c.runId, why).catch(() => undefined);
    }
  }

  private async mapItems(live: LiveRun, step: Step): Promise<unknown[]> {
    if (step.kind !== 'map') return [];
    const v = await evaluate(step.config.items, this.port.context(live, {}, live.model.steps.get(step.id)?.activation));
    return Array.isArray(v) ? v : [];
  }

  /** After a restart: deliver child ends nobody heard, and start map items still to run. */
  async resume(live: LiveRun, stepId: string): Promise<void> {
    const s = live.model.steps.get(stepId);
    const step = live.index.steps.get(stepId);
    const a = s === undefined ? undefined : currentAttempt(s);
    if (s === undefined || step === undefined || a === undefined || s.state !== 'waiting') return;
    for (const c of s.children.values()) {
      if (c.state !== null) continue;
      const row = this.port.store.getRun(c.runId);
      if (row === undefined) {
        // The child is in the log without its row (an older engine's crash): found from the log,
        // its row rebuilt, and continued (or heard from) like any child.
        if (!this.port.store.hasEvents(c.runId)) continue;
        const child = this.port.load(c.runId);
        this.port.store.setRunProjection(runRow(child.model));
        if (isTerminal(child.model.state)) await this.runEnded(child);
      } else if (isTerminal(row.state)) await this.runEnded(this.port.load(c.runId));
    }
    if (step.kind === 'map' && !live.childItems.has(stepId)) {
      try {
        live.childItems.set(stepId, { items: await this.mapItems(live, step), def: this.childDefinition(live, step.config.workflow) });
      } catch {
        return;
      }
    }
    await this.topUp(live, s, step, a.number);
  }
}
