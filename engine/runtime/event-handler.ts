// Event steps: the attempt waits for an event with its name and correlation key, sent from
// outside (`weft send`) before or while it waits, until its deadline. An event is stored in one
// commit and delivered in the next; one whose delivery never happened (the sending process
// stopped in between) is delivered when an engine next loads the waiting run (resume), so a
// stored event never waits for a step that is already waiting for it.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { ExternalEvent } from '../store/store.ts';
import { deadlineOf, deadlinePassed } from './deadline.ts';
import { evaluate } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import type { RunPort } from './run-port.ts';
import { currentAttempt, type AttemptRecord, type StepRuntime } from '../../shared/run/run-model.ts';
import type { AttemptStart, StepHandler } from './step-handler.ts';
import { inputErrorResult } from './input-error-result.ts';

export type SendStatus = { status: 'delivered' | 'kept' | 'duplicate'; runId?: string };

const STORED_EARLIER = 'it was stored earlier, and the send that stored it stopped before delivering it';

export class EventHandler implements StepHandler {
  /** Events this engine is sending now: their own send delivers them, not a catch-up (resume). */
  private readonly sending = new Set<string>();

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

  /** After a load: an event stored for this waiting step while no engine delivered it is delivered now. */
  async resume(live: LiveRun, stepId: string): Promise<void> {
    const s = live.model.steps.get(stepId);
    if (s?.state !== 'waiting' || s.awaiting === null) return;
    const e = this.port.store.findExternalEvent(s.awaiting.name, s.awaiting.key, this.sending);
    if (e !== undefined) await this.receive(live, s, e, STORED_EARLIER);
  }

  /**
   * Delivers to the run every event stored for its waiting event steps that no run has consumed
   * (a send cut short between the event's commit and its delivery); resolves once that is committed.
   */
  async deliverStored(runId: string): Promise<void> {
    const live = this.port.load(runId);
    await this.port.enqueue(live, async () => {
      for (const s of [...live.model.steps.values()]) if (s.state === 'waiting' && s.awaiting !== null) await this.resume(live, s.id);
    });
  }

  /** Delivers the event to the step if it still waits; false when it no longer does (the event stays kept). */
  private async receive(live: LiveRun, s: StepRuntime, e: ExternalEvent, why: string): Promise<boolean> {
    const a = currentAttempt(s);
    if (a === undefined || s.state !== 'waiting') return false;
    this.port.disarm(live, s.id);
    this.port.emit(live, 'event_received', { name: e.name, key: e.key, id: e.id, data: e.data, receivedAt: e.receivedAt }, { step: s.id, activation: a.activation, attempt: a.number, reason: why });
    this.port.store.consumeExternalEvent(e.id, live.model.runId, s.id);
    const output = { name: e.name, key: e.key, id: e.id, data: e.data, at: new Date(e.receivedAt).toISOString() };
    await this.port.finish(live, { stepId: s.id, activation: a.activation, attempt: a.number, result: { outcome: 'succeeded', output } });
    return true;
  }

  /**
   * An event sent from outside: stored (duplicates ignored), then delivered to the oldest loaded run
   * whose event step waits for its name and key. Undelivered events wait for a step to ask.
   * `stored` is awaited between the event's commit and its delivery (a crash test pauses there).
   */
  async send(e: ExternalEvent, stored?: () => Promise<void>): Promise<SendStatus> {
    this.sending.add(e.id);
    try {
      return await this.storeAndDeliver(e, stored);
    } finally {
      this.sending.delete(e.id);
    }
  }

  private async storeAndDeliver(e: ExternalEvent, stored?: () => Promise<void>): Promise<SendStatus> {
    const { port } = this;
    const status = port.store.receiveExternalEvent(e);
    await stored?.();
    if (status === 'duplicate') {
      const consumer = port.store.externalEventConsumer(e.id);
      const live = consumer === undefined ? undefined : [...port.liveRuns()].find((l) => l.model.runId === consumer.runId);
      if (live && consumer) {
        await port.enqueue(live, async () => {
          port.emit(live, 'event_duplicate', { name: e.name, key: e.key, id: e.id }, { step: consumer.stepId, reason: `event ${e.id} arrived again and was ignored` });
        });
      }
      return { status: 'duplicate', ...(consumer === undefined ? {} : { runId: consumer.runId }) };
    }
    // A step found waiting now may have stopped waiting by the run's next tick (an event stored
    // earlier reached it first): then the next waiting step is tried. A step that started waiting
    // meanwhile found the event itself; else the event is kept.
    const tried = new Set<StepRuntime>();
    for (;;) {
      const target = this.waitingFor(e, tried);
      if (target === undefined) {
        const consumer = port.store.externalEventConsumer(e.id);
        return consumer === undefined ? { status: 'kept' } : { status: 'delivered', runId: consumer.runId };
      }
      tried.add(target.s);
      let delivered = false;
      await port.enqueue(target.live, async () => {
        delivered = await this.receive(target.live, target.s, e, 'sent while the step waited');
      });
      if (delivered) return { status: 'delivered', runId: target.live.model.runId };
    }
  }

  /** The oldest loaded run's step that waits for the event (and was not tried yet). */
  private waitingFor(e: ExternalEvent, tried: ReadonlySet<StepRuntime>): { live: LiveRun; s: StepRuntime } | undefined {
    for (const live of [...this.port.liveRuns()].sort((a, b) => a.model.createdAt - b.model.createdAt)) {
      for (const s of live.model.steps.values()) {
        if (!tried.has(s) && s.state === 'waiting' && s.awaiting?.name === e.name && s.awaiting.key === e.key) return { live, s };
      }
    }
    return undefined;
  }
}
