// Routing: which steps become ready, how a settled step's edges and outcome move the run on
// (settle-decision.ts), the run's state (run-status.ts), and compensation before a run fails
// (compensation-plan.ts). The router writes what those pure modules decide.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { SettleOutcome } from '../../shared/events/run-event.ts';
import type { AttemptRunner } from './attempt-runner.ts';
import { compensationOrder, nextCompensation } from './compensation-plan.ts';
import { decideEdges, passedOverDecisions } from './edge-decisions.ts';
import type { LiveRun } from './live-run.ts';
import { readiness } from './readiness.ts';
import type { RunPort } from './run-port.ts';
import type { StepRuntime } from '../../shared/run/run-model.ts';
import { desiredRunState, isTerminal } from '../../shared/run/run-status.ts';
import { decideSettle } from './settle-decision.ts';
import { withdrawalReason } from './withdrawal.ts';
import { compensationHold } from './compensation-hold.ts';

/** What the core asks of a router (a test may give one that misbehaves, to prove the core's guards). */
export type Router = Pick<StepRouter, 'activateEntries' | 'route' | 'settle' | 'decideRunState'>;

export class StepRouter {
  constructor(private readonly port: RunPort, private readonly attempts: Pick<AttemptRunner, 'start'>) {}

  activateEntries(live: LiveRun, reason: string): void {
    for (const id of live.index.entries) this.activate(live, id, reason);
  }

  private activate(live: LiveRun, stepId: string, reason: string): void {
    const s = live.model.steps.get(stepId) as StepRuntime;
    this.port.emit(live, 'step_activated', {}, { step: stepId, activation: s.activation + 1, reason });
    live.ready.push(stepId);
  }

  /** Activates what became ready and starts ready steps (none while held), until nothing changes. */
  async route(live: LiveRun, held: boolean): Promise<void> {
    const m = live.model;
    // A debug run's breakpoint pauses the run while it routes: nothing more starts from then on.
    const holding = (): boolean => held || m.state === 'paused';
    while (!isTerminal(m.state) && (live.dirty.size > 0 || (!holding() && live.ready.length > 0))) {
      const dirty = [...live.dirty];
      live.dirty.clear();
      for (const id of dirty) await this.checkReadiness(live, id);
      while (!holding() && live.ready.length > 0 && !isTerminal(m.state)) {
        const id = live.ready.shift() as string;
        const s = m.steps.get(id);
        if (s?.state !== 'ready') continue;
        if (m.failing !== null && s.compensates === null) await this.settle(live, s, 'cancelled', 'the run is failing: nothing new starts');
        else await this.attempts.start(live, id);
      }
    }
  }

  private async checkReadiness(live: LiveRun, stepId: string): Promise<void> {
    const s = live.model.steps.get(stepId);
    if (s === undefined) return;
    const withdrawn = withdrawalReason(live.model, live.index, s);
    if (withdrawn !== undefined) {
      this.port.disarm(live, s.id);
      await this.settle(live, s, 'skipped', withdrawn);
      return;
    }
    const r = readiness(live.model, live.index, s);
    if (r.kind === 'activate') this.activate(live, stepId, r.reason);
    else if (r.kind === 'skip') await this.settle(live, s, 'skipped', r.reason);
    else if (r.kind === 'pass_over') {
      this.port.disarm(live, s.id);
      const edges = passedOverDecisions(live.index, s.id);
      this.port.emit(live, 'step_passed_over', { edges }, { step: s.id, activation: s.activation, reason: r.reason });
      for (const e of edges) {
        const to = live.index.edges.get(e.id)?.edge.to;
        if (to !== undefined) live.dirty.add(to);
      }
    }
    else if (r.kind === 'fail') {
      // A join that can no longer be met: an activation that fails at once, routed like any failure.
      this.port.emit(live, 'step_activated', {}, { step: stepId, activation: s.activation + 1, reason: r.reason });
      await this.settle(live, s, 'failed', r.reason);
    }
  }

  /** Settles the step's activation: records its edge decisions, then what its outcome calls for. */
  async settle(live: LiveRun, s: StepRuntime, outcome: SettleOutcome, reason: string, evidenceId?: string): Promise<void> {
    const { port } = this;
    const step = live.index.steps.get(s.id) as Step;
    const decided = await decideEdges(live.model, live.index, s.id, outcome, port.context(live, { output: s.output }, s.activation));
    const d = decideSettle(live.model, live.index, step, s, outcome, reason, decided);
    port.emit(live, 'step_settled', { outcome, ...(evidenceId === undefined ? {} : { evidenceId }), edges: d.edges }, { step: s.id, activation: s.activation, reason });
    for (const e of d.edges) {
      const to = live.index.edges.get(e.id)?.edge.to;
      if (to !== undefined) live.dirty.add(to);
    }
    const then = d.then;
    switch (then.kind) {
      case 'none':
        return;
      case 'fail':
        await this.startFailing(live, s.id, then.reason);
        return;
      case 'compensated':
        port.emit(live, 'step_compensated', { compensatedBy: s.id }, { step: then.step, reason: `"${s.id}" offset it` });
        return;
      case 'compensation_escalated':
      case 'escalate':
        port.emit(live, 'step_escalated', { outcome }, { step: s.id, activation: s.activation, reason: then.reason });
        return;
    }
  }

  /** The run is to fail: nothing new starts, what waits is cancelled, running attempts finish and are recorded. */
  private async startFailing(live: LiveRun, stepId: string, reason: string): Promise<void> {
    this.port.emit(live, 'run_failing', { stepId }, { reason });
    for (const other of live.model.steps.values()) {
      if (other.state === 'retry_wait' || other.state === 'waiting') {
        this.port.disarm(live, other.id);
        await this.settle(live, other, 'cancelled', 'the run is failing');
      }
    }
  }

  /** Moves the run to the state its steps call for; a run that is to fail compensates first. */
  async decideRunState(live: LiveRun): Promise<void> {
    const m = live.model;
    const want = desiredRunState(m);
    if (want.state !== 'running' && want.state !== 'needs_attention' && (m.failing !== null || want.state === 'failed')) {
      if (await this.compensateOrFail(live, m.failing?.reason ?? want.reason)) return;
    }
    if (want.state !== m.state && !(m.compensation !== null && want.state === 'succeeded')) {
      this.port.emit(live, 'run_state_changed', { state: want.state }, { reason: want.reason });
    }
  }

  /**
   * A run that is to fail first offsets what its external steps did: their compensation steps
   * run one at a time, in reverse order of completion. Returns true while compensation goes on
   * (or has just started); emits the failure when everything is offset.
   */
  protected async compensateOrFail(live: LiveRun, reason: string): Promise<boolean> {
    const m = live.model;
    if (m.compensation === null) {
      const order = compensationOrder(m, live.index);
      if (order.length === 0) {
        this.port.emit(live, 'run_state_changed', { state: 'failed' }, { reason });
        return true;
      }
      this.port.emit(live, 'compensation_started', { order }, { reason: `the run fails (${reason}): offsetting ${order.join(', ')} in reverse order of completion` });
    }
    const next = nextCompensation(m, live.index, reason);
    switch (next.kind) {
      case 'none':
      case 'wait':
        return false;
      case 'fail':
        this.port.emit(live, 'run_state_changed', { state: 'failed' }, { reason: next.reason });
        return true;
      case 'activate': {
        this.port.emit(live, 'step_activated', { compensates: next.compensates }, { step: next.by, activation: next.activation, reason: `compensates "${next.compensates}"` });
        // The run's policy may forbid starting it without a person: it waits, escalated, for an operator's retry (or skip).
        const hold = compensationHold(m, live.index, next.compensates, next.by);
        if (hold !== undefined) this.port.emit(live, 'step_escalated', { outcome: 'failed' }, { step: next.by, activation: next.activation, reason: hold });
        else await this.attempts.start(live, next.by);
        return true;
      }
    }
  }
}
