// Human steps: the attempt opens a task that a person decides (approve, reject) or that is
// reassigned, and that passes its deadline if nobody acts in time.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { stepActionRefusal } from '../../shared/run/action-rules.ts';
import { StoreError } from '../store/store-error.ts';
import { deadlineOf, deadlinePassed } from './deadline.ts';
import { renderTemplate } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import { checkAgainstSchema } from './output-contract.ts';
import type { RunPort } from './run-port.ts';
import { currentAttempt, type AttemptRecord, type StepRuntime } from '../../shared/run/run-model.ts';
import type { AttemptStart, StepHandler } from './step-handler.ts';
import { inputErrorResult } from './input-error-result.ts';

export interface TaskDecision {
  decision: 'approved' | 'rejected';
  by: string;
  data?: unknown;
  choice?: string;
  reason?: string;
}

export class TaskHandler implements StepHandler {
  constructor(private readonly port: RunPort) {}

  async start(live: LiveRun, s: StepRuntime, step: Step, attempt: AttemptStart): Promise<void> {
    if (step.kind !== 'human') return;
    const at = { step: s.id, activation: s.activation, attempt: attempt.number };
    const deadlineAt = deadlineOf(this.port, step);
    try {
      const c = step.config;
      const title = await renderTemplate(c.title, attempt.ctx);
      const instructions = c.instructions === undefined ? undefined : await renderTemplate(c.instructions, attempt.ctx);
      this.port.emit(live, 'task_opened', {
        task: c.task,
        title,
        ...(instructions === undefined ? {} : { instructions }),
        ...(c.assignee === undefined ? {} : { assignee: c.assignee }),
        ...(c.form === undefined ? {} : { form: c.form }),
        ...(c.options === undefined ? {} : { options: c.options }),
        ...(deadlineAt === undefined ? {} : { deadlineAt }),
      }, { ...at, reason: `task for ${c.assignee ?? 'anyone'}${deadlineAt === undefined ? '' : `, due ${new Date(deadlineAt).toISOString()}`}` });
    } catch (e) {
      await this.port.finish(live, { stepId: s.id, activation: s.activation, attempt: attempt.number, result: inputErrorResult(e) });
      return;
    }
    if (deadlineAt !== undefined) this.port.arm(live, s.id, deadlineAt);
  }

  timerDue(live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord): Promise<void> {
    return deadlinePassed(this.port, live, s, step, a);
  }

  /** A person's decision on a waiting human step (weft approve / weft reject). */
  async decide(runId: string, stepId: string, d: TaskDecision): Promise<void> {
    const live = this.port.load(runId);
    const { s, step, a } = this.openTask(live, stepId, d.decision === 'approved' ? 'approve' : 'reject');
    if (step.kind !== 'human') throw new Error(`the task rule passed "${stepId}", a ${step.kind} step`);
    if (d.decision === 'approved') {
      if (step.config.form !== undefined) {
        const problems = checkAgainstSchema(step.config.form, d.data ?? null);
        if (problems !== undefined) throw new StoreError('bad-input', `the answer does not match the form of "${stepId}": ${problems}; nothing was recorded`);
      }
      if (step.config.options !== undefined && (d.choice === undefined || !step.config.options.includes(d.choice))) {
        throw new StoreError('bad-input', `"${stepId}" asks to classify: give a choice, one of ${step.config.options.join(', ')}`, 'choice');
      }
    } else if (d.reason === undefined || d.reason.trim() === '') {
      throw new StoreError('bad-input', 'a rejection needs a reason; the next activation can read it', 'reason');
    }
    await this.port.enqueue(live, () => this.applyDecision(live, s, a, d));
  }

  private async applyDecision(live: LiveRun, s: StepRuntime, a: AttemptRecord, d: TaskDecision): Promise<void> {
    const stepId = s.id;
    if (s.state !== 'waiting' || currentAttempt(s) !== a) throw new StoreError('refused', `step "${stepId}" stopped waiting before the decision was applied; nothing was changed`);
    const at = { step: stepId, activation: a.activation, attempt: a.number };
    this.port.disarm(live, stepId);
    const decided = this.port.emit(live, 'task_decided', { decision: d.decision, by: d.by, ...(d.data === undefined ? {} : { data: d.data }), ...(d.choice === undefined ? {} : { choice: d.choice }), ...(d.reason === undefined ? {} : { reason: d.reason }) }, { ...at, reason: `${d.decision} by ${d.by}` });
    const output = {
      decision: d.decision,
      by: d.by,
      // The decision's own time, not a second reading of the clock: a replay decides at that moment, so its output is the same.
      at: new Date(decided.at).toISOString(),
      ...(d.data === undefined ? {} : { data: d.data }),
      ...(d.choice === undefined ? {} : { choice: d.choice }),
      ...(d.reason === undefined ? {} : { reason: d.reason }),
    };
    if (d.decision === 'approved') {
      await this.port.finish(live, { stepId, activation: a.activation, attempt: a.number, result: { outcome: 'succeeded', output } });
    } else {
      this.port.emit(live, 'attempt_failed', { error: { code: 'rejected', message: d.reason ?? '' }, retryable: false, output }, { ...at, reason: `rejected by ${d.by}: ${d.reason ?? ''}` });
      await this.port.settle(live, s, 'rejected', `rejected by ${d.by}`);
    }
  }

  async reassign(runId: string, stepId: string, to: string, by: string): Promise<void> {
    const live = this.port.load(runId);
    const { s, a } = this.openTask(live, stepId, 'reassign');
    await this.port.enqueue(live, async () => {
      this.port.emit(live, 'task_reassigned', { from: s.task?.assignee ?? null, to, by }, { step: stepId, activation: a.activation, attempt: a.number, reason: `reassigned to ${to} by ${by}` });
    });
  }

  /** The open task of a waiting human step, once the task rules (action-rules.ts) permit `action` on it. */
  private openTask(live: LiveRun, stepId: string, action: 'approve' | 'reject' | 'reassign'): { s: StepRuntime; step: Step; a: AttemptRecord } {
    const refusal = stepActionRefusal(live.model, stepId, action);
    if (refusal !== undefined) throw new StoreError(refusal.code, refusal.message);
    const s = live.model.steps.get(stepId);
    const step = live.index.steps.get(stepId);
    const a = s === undefined ? undefined : currentAttempt(s);
    if (s === undefined || step === undefined || a === undefined) throw new Error(`the task rule passed step "${stepId}" of run ${live.model.runId} without its open attempt`);
    return { s, step, a };
  }
}
