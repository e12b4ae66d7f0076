// Child runs: subworkflow steps run one child run, map steps one per item with bounded
// concurrency; parent and child are linked both ways in their logs.
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult } from '../executors/executor.ts';
import { evaluate } from './expressions.ts';
import { checkAgainstSchema } from './output-contract.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import { runRow } from './projections.ts';
import { findWorkspaceWorkflow } from './workspace-workflows.ts';
import { type LiveRun } from './engine-core.ts';
import { currentAttempt, type RunModel, type StepRuntime } from '../../shared/run/run-model.ts';
import { PeopleEngine } from './engine-people.ts';

export abstract class ChildrenEngine extends PeopleEngine {


  /** Finds a workflow version: its stored snapshot, else a file of the run's workspace. */
  protected childDefinition(live: LiveRun, ref: { id: string; version: number }): { workflow: Workflow; hash: string } {
    const stored = this.o.store.loadDefinition(ref.id, ref.version);
    if (stored) return stored;
    const found = findWorkspaceWorkflow(live.model.workspaceDir, ref.id, ref.version);
    const hash = this.o.store.saveDefinition(found, this.o.clock.now());
    return { workflow: found, hash };
  }

  protected async startChildren(live: LiveRun, s: StepRuntime, step: Step, attempt: number, input: unknown, ctx: Record<string, unknown>): Promise<void> {
    const done = (r: AttemptResult): Promise<void> => this.onResult(live, { stepId: s.id, activation: s.activation, attempt, result: r });
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
      this.o.workspaceTrust?.(def.workflow, live.model.workspaceDir, `step "${s.id}" of run ${live.model.runId}`);
    } catch (e) {
      await done({ outcome: 'failed', code: 'untrusted_workspace', message: (e as Error).message, retryable: false });
      return;
    }
    let items: unknown[] = [input];
    if (step.kind === 'map') {
      let value: unknown;
      try {
        value = await evaluate(step.config.items, ctx);
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
    await this.topUpChildren(live, s, step, attempt);
  }

  /** Starts child runs until the map's concurrency is used (a subworkflow has one child). */
  protected async topUpChildren(live: LiveRun, s: StepRuntime, step: Step, attempt: number): Promise<void> {
    const plan = live.childItems.get(s.id);
    if (plan === undefined || (step.kind !== 'map' && step.kind !== 'subworkflow')) return;
    const limit = step.kind === 'map' ? (step.config.concurrency ?? 4) : 1;
    let open = [...s.children.values()].filter((c) => c.state === null).length;
    for (let k = 0; k < plan.items.length && open < limit; k++) {
      if (s.children.has(k)) continue;
      const childRunId = this.startRun({
        workflow: plan.def.workflow,
        definitionHash: plan.def.hash,
        input: plan.items[k],
        workspaceDir: live.model.workspaceDir,
        parent: { runId: live.model.runId, stepId: s.id, activation: s.activation, attempt, ...(step.kind === 'map' ? { index: k } : {}) },
      });
      this.emit(live, 'child_started', { childRunId, ...(step.kind === 'map' ? { index: k } : {}) }, { step: s.id, activation: s.activation, attempt, reason: `${plan.def.workflow.id} v${plan.def.workflow.version} run ${childRunId}${step.kind === 'map' ? ` for item ${k}` : ''}` });
      open++;
    }
  }

  protected async notifyParent(child: LiveRun): Promise<void> {
    const p = child.model.parent;
    if (p === undefined) return;
    let output: unknown = null;
    if (child.model.state === 'succeeded' && child.model.workflow.output !== undefined) {
      try {
        output = (await evaluate(child.model.workflow.output, this.context(child))) ?? null;
      } catch (e) {
        output = { error: (e as Error).message };
      }
    }
    let parent: LiveRun;
    try {
      parent = this.load(p.runId);
    } catch {
      return; // the parent is gone from this store: nothing to tell
    }
    const state = child.model.state;
    parent.actions.push(() => this.childFinished(parent, p, child.model.runId, state, output));
    this.markDirty(parent);
  }

  protected async childFinished(live: LiveRun, p: NonNullable<RunModel['parent']>, childRunId: string, state: string, output: unknown): Promise<void> {
    const s = live.model.steps.get(p.stepId);
    const a = s === undefined ? undefined : currentAttempt(s);
    if (s === undefined || a === undefined || a.activation !== p.activation || a.number !== p.attempt || s.state !== 'waiting') return;
    const index = p.index ?? 0;
    if (s.children.get(index)?.state !== null) return; // already recorded
    const step = live.index.steps.get(s.id) as Step;
    this.emit(live, 'child_finished', { childRunId, state, ...(output === null ? {} : { output }), ...(p.index === undefined ? {} : { index: p.index }) }, { step: s.id, activation: a.activation, attempt: a.number, reason: `child run ${childRunId} ${state}` });
    const done = (r: AttemptResult): Promise<void> => this.onResult(live, { stepId: s.id, activation: a.activation, attempt: a.number, result: r });
    if (step.kind === 'subworkflow') {
      await done(state === 'succeeded' ? { outcome: 'succeeded', output } : { outcome: 'failed', code: `child_${state}`, message: `child run ${childRunId} ended ${state}`, retryable: true });
      return;
    }
    if (step.kind !== 'map') return;
    if (state !== 'succeeded' && step.config.onItemFailure !== 'continue') {
      this.cancelChildren(s, `item ${index} of "${s.id}" ended ${state}`);
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
    await this.topUpChildren(live, s, step, a.number);
  }

  /** Cancels a step's unfinished child runs (not awaited: each applies in its own tick). */
  protected cancelChildren(s: StepRuntime, why: string): void {
    for (const c of s.children.values()) {
      if (c.state === null) void this.cancelRun(c.runId, 'engine', why).catch(() => undefined);
    }
  }

  protected async mapItems(live: LiveRun, step: Step): Promise<unknown[]> {
    if (step.kind !== 'map') return [];
    const v = await evaluate(step.config.items, this.context(live, {}, live.model.steps.get(step.id)?.activation));
    return Array.isArray(v) ? v : [];
  }

  /** After a restart: deliver child ends nobody heard, and start map items still to run. */
  protected async catchUpChildren(live: LiveRun, stepId: string): Promise<void> {
    const s = live.model.steps.get(stepId);
    const step = live.index.steps.get(stepId);
    const a = s === undefined ? undefined : currentAttempt(s);
    if (s === undefined || step === undefined || a === undefined || s.state !== 'waiting') return;
    for (const c of s.children.values()) {
      if (c.state !== null) continue;
      const row = this.o.store.getRun(c.runId);
      if (row === undefined) {
        // The child is in the log without its row (an older engine's crash): found from the log,
        // its row rebuilt, and continued (or heard from) like any child.
        if (!this.o.store.hasEvents(c.runId)) continue;
        const child = this.load(c.runId);
        this.o.store.setRunProjection(runRow(child.model));
        if (isTerminal(child.model.state)) await this.notifyParent(child);
      } else if (isTerminal(row.state)) await this.notifyParent(this.load(c.runId));
    }
    if (step.kind === 'map' && !live.childItems.has(stepId)) {
      try {
        live.childItems.set(stepId, { items: await this.mapItems(live, step), def: this.childDefinition(live, step.config.workflow) });
      } catch {
        return;
      }
    }
    await this.topUpChildren(live, s, step, a.number);
  }

  /** Operator cancel (engine.ts): children of a failed map or a cancelled parent are cancelled. */
  abstract cancelRun(runId: string, by: string, reason: string): Promise<void>;
}
