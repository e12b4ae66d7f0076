// Operator control: pause, resume, cancel, retry, skip, resolve and keep. Each action is an event
// naming who and why, applied inside a tick; a state that does not permit it is refused
// (StoreError 'refused') before anything is written.
import type { StepKind, RunState } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { StoreError } from '../store/store-error.ts';
import { joinRefusal } from './join-readiness.ts';
import type { LiveRun } from './live-run.ts';
import { checkAgainstSchema } from './output-contract.ts';
import type { RunPort } from './run-port.ts';
import { operatorEvidenceId, type StepRuntime } from './run-model.ts';
import type { StepHandler } from './step-handler.ts';

/** Join states an operator's retry or skip could settle (others are refused by the state check). */
const SETTLEABLE_JOIN = new Set(['blocked', 'failed', 'cancelled', 'skipped', 'unknown', 'rejected']);

export class OperatorActions {
  constructor(private readonly port: RunPort, private readonly handlerFor: (kind: StepKind) => StepHandler | undefined) {}

  async pauseRun(runId: string, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'pause', ['running', 'waiting', 'needs_attention']);
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'operator_action', { action: 'pause', by }, { reason: `paused by ${by}: ${reason}` });
      this.port.emit(live, 'run_state_changed', { state: 'paused' }, { reason: `paused by ${by}` });
    });
  }

  async unpauseRun(runId: string, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'resume', ['paused']);
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'operator_action', { action: 'resume', by }, { reason: `resumed by ${by}: ${reason}` });
      this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `resumed by ${by}` });
      for (const s of live.model.steps.values()) if (s.state === 'ready') live.ready.push(s.id);
    });
  }

  async cancelRun(runId: string, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'cancel', ['running', 'waiting', 'needs_attention', 'paused']);
    await this.port.enqueue(live, async () => {
      const m = live.model;
      this.port.emit(live, 'operator_action', { action: 'cancel', by }, { reason: `cancelled by ${by}: ${reason}` });
      for (const s of m.steps.values()) {
        if (s.state === 'ready' || s.state === 'retry_wait' || s.state === 'waiting' || s.state === 'blocked') {
          this.port.disarm(live, s.id);
          if (s.state !== 'blocked') {
            this.port.emit(live, 'step_settled', { outcome: 'cancelled', edges: [] }, { step: s.id, activation: s.activation, reason: `cancelled by ${by}` });
          }
        }
      }
      for (const r of live.running.values()) r.controller.abort(new Error(`cancelled by ${by}`));
      // What steps wait on (child runs) is cancelled too.
      for (const s of m.steps.values()) {
        const kind = live.index.steps.get(s.id)?.kind;
        if (kind !== undefined) this.handlerFor(kind)?.stop?.(live, s, `parent run ${m.runId} cancelled`);
      }
      this.port.emit(live, 'run_state_changed', { state: 'cancelled' }, { reason: `cancelled by ${by}: ${reason}` });
    });
  }

  async retryStep(runId: string, stepId: string, by: string, reason: string, input?: { value: unknown }): Promise<void> {
    const live = this.operable(runId, 'retry', ['running', 'waiting', 'needs_attention', 'failed', 'paused']);
    this.refuseJoinWithoutBranches(live, stepId, 'retry');
    // A step a revision holds (waiting for a decision) may be retried: the operator's decision to repeat the effect.
    const held = (live.model.steps.get(stepId)?.held ?? null) === null ? [] : ['waiting'];
    const s = this.stepFor(live, stepId, 'retry', ['failed', 'unknown', 'rejected', 'cancelled', ...held]);
    await this.port.enqueue(live, async () => {
      const m = live.model;
      this.port.emit(live, 'operator_action', { action: 'retry', by }, { step: stepId, reason: `retried by ${by}: ${reason}` });
      if (m.state === 'failed') this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `step "${stepId}" retried by ${by}` });
      this.port.emit(live, 'step_activated', input === undefined ? {} : { input: input.value }, { step: stepId, activation: s.activation + 1, reason: `retried by ${by}${input === undefined ? '' : ' with a new input'}` });
      live.ready.push(stepId);
    });
  }

  async skipStep(runId: string, stepId: string, output: unknown, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'skip', ['running', 'waiting', 'needs_attention', 'failed', 'paused']);
    this.refuseJoinWithoutBranches(live, stepId, 'skip');
    const s = this.stepFor(live, stepId, 'skip', ['blocked', 'ready', 'retry_wait', 'waiting', 'failed', 'unknown', 'rejected', 'cancelled', 'skipped']);
    const step = live.index.steps.get(stepId) as Step;
    const problems = step.output === undefined ? undefined : checkAgainstSchema(step.output, output);
    if (problems !== undefined) throw new StoreError('bad-input', `the output does not match the output schema of "${stepId}": ${problems}; nothing was changed`);
    await this.port.enqueue(live, async () => {
      this.operatorSettles(live, s, 'skip', by, reason);
      this.port.emit(live, 'operator_action', { action: 'skip', by, output }, { step: stepId, activation: s.activation, reason: `skipped by ${by} with a given output: ${reason}` });
      await this.port.settle(live, s, 'succeeded', `skipped by ${by}`, operatorEvidenceId(stepId, s.activation));
    });
  }

  async resolveStep(runId: string, stepId: string, as: 'succeeded' | 'failed', by: string, reason: string, evidence?: unknown): Promise<void> {
    const live = this.operable(runId, 'resolve', ['running', 'waiting', 'needs_attention', 'failed', 'paused']);
    const s = this.stepFor(live, stepId, 'resolve', ['unknown']);
    const step = live.index.steps.get(stepId) as Step;
    if (as === 'succeeded' && step.output !== undefined) {
      const problems = checkAgainstSchema(step.output, evidence ?? null);
      if (problems !== undefined) throw new StoreError('bad-input', `the evidence does not match the output schema of "${stepId}": ${problems}; nothing was changed`);
    }
    await this.port.enqueue(live, async () => {
      this.operatorSettles(live, s, 'resolve', by, reason);
      this.port.emit(live, 'operator_action', { action: 'resolve', by, as, ...(evidence === undefined ? {} : { output: evidence }) }, { step: stepId, activation: s.activation, reason: `resolved as ${as} by ${by}: ${reason}` });
      await this.port.settle(live, s, as, `resolved as ${as} by ${by}`, as === 'succeeded' ? operatorEvidenceId(stepId, s.activation) : undefined);
    });
  }

  /**
   * For a step a revision holds (its input changed after its effect happened): the earlier
   * evidence stands for the new revision, and the run goes on from it without repeating the effect.
   */
  async keepStep(runId: string, stepId: string, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'keep', ['running', 'waiting', 'needs_attention', 'paused']);
    const s = this.stepFor(live, stepId, 'keep', ['waiting']);
    const held = s.held;
    const ev = held === null ? undefined : live.model.evidence.get(held.evidenceId);
    if (held === null || ev === undefined) {
      throw new StoreError('refused', `cannot keep step "${stepId}": it is waiting, but not for a decision after a revision (keep works on steps a revision holds); nothing was changed`);
    }
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'operator_action', { action: 'keep', by }, { step: stepId, activation: s.activation, reason: `kept by ${by}: ${reason}` });
      await this.port.reuseEvidence(live, s, ev, `kept by ${by}: evidence ${ev.id} (revision ${ev.covers.inputRevision}) stands although the input changed`);
    });
  }

  /** A skip or resolve reopens a failed run and needs an activation to settle. */
  private operatorSettles(live: LiveRun, s: StepRuntime, action: string, by: string, reason: string): void {
    const m = live.model;
    if (m.state === 'failed') this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `${action} of "${s.id}" by ${by}` });
    if (s.state === 'blocked' || s.state === 'skipped' || s.activation === 0) {
      this.port.emit(live, 'step_activated', {}, { step: s.id, activation: s.activation + 1, reason: `${action} by ${by}: ${reason}` });
    }
    this.port.disarm(live, s.id);
  }

  /**
   * A join never goes on without the branches it needs, whoever asks: a retry or skip of a join is
   * refused, with the reason, while one is missing. The operator acts on the branch instead, and the
   * join goes on by itself when the branch arrives.
   */
  private refuseJoinWithoutBranches(live: LiveRun, stepId: string, action: string): void {
    const step = live.index.steps.get(stepId);
    const s = live.model.steps.get(stepId);
    if (step?.kind !== 'join' || s === undefined || !SETTLEABLE_JOIN.has(s.state)) return;
    const why = joinRefusal(live.model, live.index, step, s);
    if (why === undefined) return;
    throw new StoreError('refused', `cannot ${action} join "${stepId}": ${why}; retry, resolve or skip the missing branch instead, and the join goes on when it arrives; nothing was changed`);
  }

  private operable(runId: string, action: string, states: RunState[]): LiveRun {
    const live = this.port.load(runId);
    if (!states.includes(live.model.state)) {
      throw new StoreError('refused', `cannot ${action} run ${runId}: it is ${live.model.state} (${action} works on ${states.join(', ')} runs); nothing was changed`);
    }
    return live;
  }

  private stepFor(live: LiveRun, stepId: string, action: string, states: string[]): StepRuntime {
    const s = live.model.steps.get(stepId);
    if (s === undefined) throw new StoreError('bad-input', `run ${live.model.runId} has no step "${stepId}"; its steps are ${[...live.index.steps.keys()].join(', ')}`);
    if (!states.includes(s.state)) {
      throw new StoreError('refused', `cannot ${action} step "${stepId}": it is ${s.state} (${action} works on ${states.join(', ')} steps); nothing was changed`);
    }
    return s;
  }
}
