// Event steps: the attempt waits for an event with its name and correlation key, sent from
// outside (`weft send`) before or while it waits, until its deadline.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { ExternalEvent } from '../store/store.ts';
import { deadlineOf, deadlinePassed } from './deadline.ts';
import { evaluate } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import type { RunPort } from './run-port.ts';
import { currentAttempt, type AttemptRecord, type StepRuntime } from '../../shared/run/run-model.ts';
import type { AttemptStart, StepHandler } from './step-handler.ts';
import { inputErrorResult } from './input-error.ts';

export class EventHandler implements StepHandler {
  constructor(private readonly port: RunPort) {}

  async start(live: LiveRun, s: StepRuntime, step: Step, attempt: AttemptStart): Promise<void> {
    if (step.kind !== 'event') return;
    const at = { step: s.id, activation: s.activation, attempt: attempt.number };
    const deadlineAt = deadlineOf(this.port, step);
    try {
      const key = String(await evaluate(step.config.correlationKey, attempt.ctx));
      this.port.emit(live, 'event_awaited', { name: step.config.name, key, ...(deadlineAt === undefined ? {} : { deadlineAt }) }, { ...at, reason: `waits for event "${step.config.name}" with key "${key}"` });
      const early = this.port.store.findExternalEvent(step.config.name, key);
      if (early !== undefined) {
        await this.receive(live, s, early, 'it arrived before the step waited');
        return;
      }
    } catch (e) {
      await this.port.finish(live, { stepId: s.id, activation: s.activation, attempt: attempt.number, result: inputErrorResult(e) });
      return;
    }
    if (deadlineAt !== undefined) this.port.arm(live, s.id, deadlineAt);
  }

  timerDue(live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord): Promise<void> {
    return deadlinePassed(this.port, live, s, step, a);
  }

  private async receive(live: LiveRun, s: StepRuntime, e: ExternalEvent, why: string): Promise<void> {
    const a = currentAttempt(s);
    if (a === undefined || s.state !== 'waiting') return; // no longer waiting: the event stays kept
    this.port.disarm(live, s.id);
    this.port.emit(live, 'event_received', { name: e.name, key: e.key, id: e.id, data: e.data, receivedAt: e.receivedAt }, { step: s.id, activation: a.activation, attempt: a.number, reason: why });
    this.port.store.consumeExternalEvent(e.id, live.model.runId, s.id);
    const output = { name: e.name, key: e.key, id: e.id, data: e.data, at: new Date(e.receivedAt).toISOString() };
    await this.port.finish(live, { stepId: s.id, activation: a.activation, attempt: a.number, result: { outcome: 'succeeded', output } });
  }

  /**
   * An event sent from outside: stored (duplicates ignored), then delivered to the oldest loaded run
   * whose event step waits for its name and key. Undelivered events wait for a step to ask.
   */
  async send(e: ExternalEvent): Promise<{ status: 'delivered' | 'kept' | 'duplicate'; runId?: string }> {
    const { port } = this;
    if (port.store.receiveExternalEvent(e) === 'duplicate') {
      const consumer = port.store.externalEventConsumer(e.id);
      const live = consumer === undefined ? undefined : [...port.liveRuns()].find((l) => l.model.runId === consumer.runId);
      if (live && consumer) {
        await port.enqueue(live, async () => {
          port.emit(live, 'event_duplicate', { name: e.name, key: e.key, id: e.id }, { step: consumer.stepId, reason: `event ${e.id} arrived again and was ignored` });
        });
      }
      return { status: 'duplicate', ...(consumer === undefined ? {} : { runId: consumer.runId }) };
    }
    for (const live of [...port.liveRuns()].sort((a, b) => a.model.createdAt - b.model.createdAt)) {
      for (const s of live.model.steps.values()) {
        if (s.state === 'waiting' && s.awaiting?.name === e.name && s.awaiting.key === e.key) {
          await port.enqueue(live, () => this.receive(live, s, e, 'sent while the step waited'));
          return { status: 'delivered', runId: live.model.runId };
        }
      }
    }
    return { status: 'kept' };
  }
}
