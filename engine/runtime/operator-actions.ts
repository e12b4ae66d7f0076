// Operator control: pause, resume, cancel, retry, skip, resolve and keep, and notes. Each action is an event
// naming who and why, applied inside a tick; a state that does not permit it is refused
// (StoreError 'refused') before anything is written, by the rules of shared/run/action-rules.ts,
// the same rules a run's read model lists its permitted actions by.
import type { StepKind } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { DebugActionName, RunLevelActionName, StepActionName } from '../../shared/api/permitted-action.ts';
import { debugActionRefusal, noteRefusal, runActionRefusal, stepActionRefusal, type Refusal } from '../../shared/run/action-rules.ts';
import { StoreError } from '../store/store-error.ts';
import type { LiveRun } from './live-run.ts';
import { outputViolations } from './output-contract.ts';
import { reopenPlan } from './reopen-plan.ts';
import type { RunPort } from './run-port.ts';
import { operatorEvidenceId, type StepRuntime } from '../../shared/run/run-model.ts';
import type { StepHandler } from './step-handler.ts';
import { heldCompensation } from './compensation-hold.ts';

/** Throws a refusal of action-rules.ts as the StoreError the CLI and server report. */
function refuse(r: Refusal | undefined): void {
  if (r !== undefined) throw new StoreError(r.code, r.message);
}

export class OperatorActions {
  constructor(private readonly port: RunPort, private readonly handlerFor: (kind: StepKind) => StepHandler | undefined) {}

  /** An operator opened a stored artifact (docs/long-running.md): allowed in any state of the run, as a record of who looked. */
  async artifactOpened(runId: string, data: { sha256: string; path: string; by: string }): Promise<void> {
    const live = this.port.load(runId);
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'artifact_opened', data, { reason: `opened by ${data.by}` });
    });
  }

  async pauseRun(runId: string, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'pause');
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'operator_action', { action: 'pause', by }, { reason: `paused by ${by}: ${reason}` });
      this.port.emit(live, 'run_state_changed', { state: 'paused' }, { reason: `paused by ${by}` });
    });
  }

  async unpauseRun(runId: string, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'resume');
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'operator_action', { action: 'resume', by }, { reason: `resumed by ${by}: ${reason}` });
      this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `resumed by ${by}` });
      for (const s of live.model.steps.values()) if (s.state === 'ready') live.ready.push(s.id);
    });
  }

  /**
   * A debug run paused at a breakpoint goes on: the paused activation starts without stopping there
   * again; with `step`, the run pauses again before the next step that starts (kept in the log, so
   * it holds across a restart).
   */
  async debugResume(runId: string, mode: DebugActionName, by: string, reason: string): Promise<void> {
    const live = this.port.load(runId);
    refuse(debugActionRefusal(live.model, mode));
    await this.port.enqueue(live, async () => {
      const at = live.model.debug?.pausedAt ?? null;
      const where = at === null ? {} : { step: at.stepId, activation: at.activation };
      this.port.emit(live, 'debug_resumed', { mode, by }, { ...where, reason: `${mode === 'step' ? 'stepped' : 'continued'} by ${by}: ${reason}` });
      this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `${mode === 'step' ? 'stepped' : 'continued'} by ${by}` });
      for (const s of live.model.steps.values()) if (s.state === 'ready') live.ready.push(s.id);
    });
  }

  async cancelRun(runId: string, by: string, reason: string): Promise<void> {
    const live = this.operable(runId, 'cancel');
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
    const live = this.port.load(runId);
    const s = this.stepFor(live, stepId, 'retry');
    await this.port.enqueue(live, async () => {
      const m = live.model;
      this.port.emit(live, 'operator_action', { action: 'retry', by }, { step: stepId, reason: `retried by ${by}: ${reason}` });
      if (m.state === 'failed') this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `step "${stepId}" retried by ${by}` });
      this.reopen(live, stepId, `retry of "${stepId}" by ${by}`);
      // A compensation the policy held for a person runs, retried, as that compensation (compensation-hold.ts).
      const compensates = heldCompensation(s);
      this.port.emit(live, 'step_activated', { ...(input === undefined ? {} : { input: input.value }), ...(compensates === undefined ? {} : { compensates }) }, { step: stepId, activation: s.activation + 1, reason: `retried by ${by}${input === undefined ? '' : ' with a new input'}${compensates === undefined ? '' : `: approves compensating "${compensates}"`}` });
      live.ready.push(stepId);
    });
  }

  async skipStep(runId: string, stepId: string, output: unknown, by: string, reason: string): Promise<void> {
    const live = this.port.load(runId);
    const s = this.stepFor(live, stepId, 'skip');
    const step = live.index.steps.get(stepId) as Step;
    const problems = outputViolations(step, output);
    if (problems !== undefined) throw new StoreError('bad-input', `the output does not match the output schema of "${stepId}": ${problems}; nothing was changed`);
    await this.port.enqueue(live, async () => {
      this.operatorSettles(live, s, 'skip', by, reason);
      this.port.emit(live, 'operator_action', { action: 'skip', by, output }, { step: stepId, activation: s.activation, reason: `skipped by ${by} with a given output: ${reason}` });
      await this.port.settle(live, s, 'succeeded', `skipped by ${by}`, operatorEvidenceId(stepId, s.activation));
    });
  }

  async resolveStep(runId: string, stepId: string, as: 'succeeded' | 'failed', by: string, reason: string, evidence?: unknown): Promise<void> {
    const live = this.port.load(runId);
    const s = this.stepFor(live, stepId, 'resolve');
    const step = live.index.steps.get(stepId) as Step;
    if (as === 'succeeded') {
      const problems = outputViolations(step, evidence ?? null);
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
    const live = this.port.load(runId);
    const s = this.stepFor(live, stepId, 'keep');
    const ev = s.held === null ? undefined : live.model.evidence.get(s.held.evidenceId);
    if (ev === undefined) throw new Error(`step "${stepId}" passed the keep rule without the evidence its hold names`);
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'operator_action', { action: 'keep', by }, { step: stepId, activation: s.activation, reason: `kept by ${by}: ${reason}` });
      await this.port.reuseEvidence(live, s, ev, `kept by ${by}: evidence ${ev.id} (revision ${ev.covers.inputRevision}) stands although the input changed`);
    });
  }

  /**
   * An operator's note on the run, or on step `stepId`: recorded as `note_added` in any run state
   * (a settled run's log takes it too), and nothing else changes.
   */
  async addNote(runId: string, stepId: string | undefined, text: string, by: string): Promise<void> {
    const live = this.port.load(runId);
    refuse(noteRefusal(live.model, stepId));
    const s = stepId === undefined ? undefined : live.model.steps.get(stepId);
    await this.port.enqueue(live, async () => {
      const where = s === undefined ? {} : { step: s.id, ...(s.activation > 0 ? { activation: s.activation } : {}) };
      this.port.emit(live, 'note_added', { text, by }, { ...where, reason: `note by ${by}` });
    });
  }

  /** A skip or resolve reopens a failed run and needs an activation to settle. */
  private operatorSettles(live: LiveRun, s: StepRuntime, action: string, by: string, reason: string): void {
    const m = live.model;
    if (m.state === 'failed') this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `${action} of "${s.id}" by ${by}` });
    this.reopen(live, s.id, `${action} of "${s.id}" by ${by}`);
    if (s.state === 'blocked' || s.state === 'skipped' || s.activation === 0) {
      this.port.emit(live, 'step_activated', {}, { step: s.id, activation: s.activation + 1, reason: `${action} by ${by}: ${reason}` });
    }
    this.port.disarm(live, s.id);
  }

  /**
   * The step is about to be settled again: what its earlier outcome decided after it is withdrawn
   * and decided again from the new one (reopen-plan.ts), so an end step reached on the old path
   * no longer ends the run.
   */
  private reopen(live: LiveRun, stepId: string, what: string): void {
    const plan = reopenPlan(live.model, live.index, stepId, what);
    if (plan === undefined) return;
    this.port.emit(live, 'path_reopened', plan.data, { step: stepId, reason: plan.reason });
    for (const r of plan.data.steps) {
      this.port.disarm(live, r.stepId);
      live.dirty.add(r.stepId);
    }
  }

  /** Loads the run and checks that it permits a run-level action now (action-rules.ts). */
  private operable(runId: string, action: RunLevelActionName): LiveRun {
    const live = this.port.load(runId);
    refuse(runActionRefusal(live.model, action));
    return live;
  }

  /** The step of a step action, once the rules (run state, join branches, step state) permit it. */
  private stepFor(live: LiveRun, stepId: string, action: StepActionName): StepRuntime {
    refuse(stepActionRefusal(live.model, stepId, action));
    const s = live.model.steps.get(stepId);
    if (s === undefined) throw new Error(`the ${action} rule passed step "${stepId}", which run ${live.model.runId} does not have`);
    return s;
  }
}
