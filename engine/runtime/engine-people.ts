// People and events: human steps open tasks that a person decides (approve, reject, reassign)
// and that expire at their deadline; event steps wait for a correlated event sent from outside.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { ExternalEvent } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';
import { evaluate, renderTemplate } from './expressions.ts';
import { checkAgainstSchema } from './output-contract.ts';
import { EngineCore, type LiveRun } from './engine-core.ts';
import { stepActionRefusal } from '../../shared/run/action-rules.ts';
import { currentAttempt, type AttemptRecord, type StepRuntime } from '../../shared/run/run-model.ts';

export abstract class PeopleEngine extends EngineCore {

  protected async startWaiting(live: LiveRun, s: StepRuntime, step: Step, attempt: number, ctx: Record<string, unknown>): Promise<void> {
    const at = { step: s.id, activation: s.activation, attempt };
    const deadlineAt = step.deadlineMs === undefined ? undefined : this.o.clock.now() + step.deadlineMs;
    try {
      if (step.kind === 'human') {
        const c = step.config;
        const title = await renderTemplate(c.title, ctx);
        const instructions = c.instructions === undefined ? undefined : await renderTemplate(c.instructions, ctx);
        this.emit(live, 'task_opened', {
          task: c.task,
          title,
          ...(instructions === undefined ? {} : { instructions }),
          ...(c.assignee === undefined ? {} : { assignee: c.assignee }),
          ...(c.form === undefined ? {} : { form: c.form }),
          ...(c.options === undefined ? {} : { options: c.options }),
          ...(deadlineAt === undefined ? {} : { deadlineAt }),
        }, { ...at, reason: `task for ${c.assignee ?? 'anyone'}${deadlineAt === undefined ? '' : `, due ${new Date(deadlineAt).toISOString()}`}` });
      } else if (step.kind === 'event') {
        const key = String(await evaluate(step.config.correlationKey, ctx));
        this.emit(live, 'event_awaited', { name: step.config.name, key, ...(deadlineAt === undefined ? {} : { deadlineAt }) }, { ...at, reason: `waits for event "${step.config.name}" with key "${key}"` });
        const early = this.o.store.findExternalEvent(step.config.name, key);
        if (early !== undefined) {
          await this.receive(live, s, early, 'it arrived before the step waited');
          return;
        }
      }
    } catch (e) {
      await this.onResult(live, { stepId: s.id, activation: s.activation, attempt, result: { outcome: 'failed', code: 'input_error', message: (e as Error).message, retryable: false } });
      return;
    }
    if (deadlineAt !== undefined) this.arm(live, s.id, deadlineAt);
  }

  protected async deadlinePassed(live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord): Promise<void> {
    const onExpire = step.kind === 'human' ? (step.config.onExpire ?? 'expire') : 'expire';
    const at = { step: s.id, activation: a.activation, attempt: a.number };
    this.emit(live, 'deadline_passed', { onExpire }, { ...at, reason: `deadline of ${step.deadlineMs} ms passed` });
    if (onExpire === 'escalate') {
      this.emit(live, 'step_escalated', { outcome: 'expired' }, { step: s.id, activation: s.activation, reason: `the task of "${s.id}" passed its deadline and onExpire is escalate: it stays open for a person` });
      return;
    }
    if (onExpire === 'reject') {
      const output = { decision: 'rejected', by: 'deadline', reason: 'the deadline passed', at: new Date(this.o.clock.now()).toISOString() };
      this.emit(live, 'attempt_failed', { error: { code: 'rejected', message: 'the deadline passed' }, retryable: false, output }, { ...at, reason: 'rejected: the deadline passed' });
      await this.settle(live, s, 'rejected', 'the deadline passed (onExpire reject)');
      return;
    }
    this.emit(live, 'attempt_failed', { error: { code: 'expired', message: 'the deadline passed' }, retryable: false }, { ...at, reason: 'the deadline passed' });
    await this.settle(live, s, 'expired', 'the deadline passed');
  }

  protected async receive(live: LiveRun, s: StepRuntime, e: ExternalEvent, why: string): Promise<void> {
    const a = currentAttempt(s);
    if (a === undefined || s.state !== 'waiting') return; // no longer waiting: the event stays kept
    this.disarm(live, s.id);
    this.emit(live, 'event_received', { name: e.name, key: e.key, id: e.id, data: e.data, receivedAt: e.receivedAt }, { step: s.id, activation: a.activation, attempt: a.number, reason: why });
    this.o.store.consumeExternalEvent(e.id, live.model.runId, s.id);
    const output = { name: e.name, key: e.key, id: e.id, data: e.data, at: new Date(e.receivedAt).toISOString() };
    await this.onResult(live, { stepId: s.id, activation: a.activation, attempt: a.number, result: { outcome: 'succeeded', output } });
  }

  /** A person's decision on a waiting human step (weft approve / weft reject). */
  async decideTask(runId: string, stepId: string, d: { decision: 'approved' | 'rejected'; by: string; data?: unknown; choice?: string; reason?: string }): Promise<void> {
    const live = this.load(runId);
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
    await this.enqueue(live, () => this.applyDecision(live, s, a, d));
  }

  protected async applyDecision(live: LiveRun, s: StepRuntime, a: AttemptRecord, d: { decision: 'approved' | 'rejected'; by: string; data?: unknown; choice?: string; reason?: string }): Promise<void> {
    const stepId = s.id;
    if (s.state !== 'waiting' || currentAttempt(s) !== a) throw new StoreError('refused', `step "${stepId}" stopped waiting before the decision was applied; nothing was changed`);
    const at = { step: stepId, activation: a.activation, attempt: a.number };
    this.disarm(live, stepId);
    this.emit(live, 'task_decided', { decision: d.decision, by: d.by, ...(d.data === undefined ? {} : { data: d.data }), ...(d.choice === undefined ? {} : { choice: d.choice }), ...(d.reason === undefined ? {} : { reason: d.reason }) }, { ...at, reason: `${d.decision} by ${d.by}` });
    const output = {
      decision: d.decision,
      by: d.by,
      at: new Date(this.o.clock.now()).toISOString(),
      ...(d.data === undefined ? {} : { data: d.data }),
      ...(d.choice === undefined ? {} : { choice: d.choice }),
      ...(d.reason === undefined ? {} : { reason: d.reason }),
    };
    if (d.decision === 'approved') {
      await this.onResult(live, { stepId, activation: a.activation, attempt: a.number, result: { outcome: 'succeeded', output } });
    } else {
      this.emit(live, 'attempt_failed', { error: { code: 'rejected', message: d.reason ?? '' }, retryable: false, output }, { ...at, reason: `rejected by ${d.by}: ${d.reason ?? ''}` });
      await this.settle(live, s, 'rejected', `rejected by ${d.by}`);
    }
  }

  async reassignTask(runId: string, stepId: string, to: string, by: string): Promise<void> {
    const live = this.load(runId);
    const { s, a } = this.openTask(live, stepId, 'reassign');
    await this.enqueue(live, async () => {
      this.emit(live, 'task_reassigned', { from: s.task?.assignee ?? null, to, by }, { step: stepId, activation: a.activation, attempt: a.number, reason: `reassigned to ${to} by ${by}` });
    });
  }

  /** The open task of a waiting human step, once the task rules (action-rules.ts) permit `action` on it. */
  protected openTask(live: LiveRun, stepId: string, action: 'approve' | 'reject' | 'reassign'): { s: StepRuntime; step: Step; a: AttemptRecord } {
    const refusal = stepActionRefusal(live.model, stepId, action);
    if (refusal !== undefined) throw new StoreError(refusal.code, refusal.message);
    const s = live.model.steps.get(stepId);
    const step = live.index.steps.get(stepId);
    const a = s === undefined ? undefined : currentAttempt(s);
    if (s === undefined || step === undefined || a === undefined) throw new Error(`the task rule passed step "${stepId}" of run ${live.model.runId} without its open attempt`);
    return { s, step, a };
  }

  /**
   * An event sent from outside: stored (duplicates ignored), then delivered to the oldest loaded run
   * whose event step waits for its name and key. Undelivered events wait for a step to ask.
   */
  async sendEvent(e: ExternalEvent): Promise<{ status: 'delivered' | 'kept' | 'duplicate'; runId?: string }> {
    if (this.o.store.receiveExternalEvent(e) === 'duplicate') {
      const consumer = this.o.store.externalEventConsumer(e.id);
      const live = consumer === undefined ? undefined : this.runs.get(consumer.runId);
      if (live && consumer) {
        await this.enqueue(live, async () => {
          this.emit(live, 'event_duplicate', { name: e.name, key: e.key, id: e.id }, { step: consumer.stepId, reason: `event ${e.id} arrived again and was ignored` });
        });
      }
      return { status: 'duplicate', ...(consumer === undefined ? {} : { runId: consumer.runId }) };
    }
    for (const live of [...this.runs.values()].sort((a, b) => a.model.createdAt - b.model.createdAt)) {
      for (const s of live.model.steps.values()) {
        if (s.state === 'waiting' && s.awaiting?.name === e.name && s.awaiting.key === e.key) {
          await this.enqueue(live, () => this.receive(live, s, e, 'sent while the step waited'));
          return { status: 'delivered', runId: live.model.runId };
        }
      }
    }
    return { status: 'kept' };
  }
}
