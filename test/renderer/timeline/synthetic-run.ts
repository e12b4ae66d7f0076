// Synthetic run logs for the timeline's tests: events as the engine writes them (seq order, each
// type with its data), folded by the shared `timeline()` into the read model the server serves.
import { runEvent, type EventData, type EventType, type RunEvent } from '../../../shared/events/run-event.ts';

const COVERS = { inputHash: 'h', definitionVersion: 1, inputRevision: 1 };

/** Appends events with growing seq; `at` is given per event. */
export class LogWriter {
  readonly events: RunEvent[] = [];
  constructor(readonly runId = 'r1') {}

  add<T extends EventType>(type: T, at: number, data: EventData<T>, where: { step?: string; activation?: number; attempt?: number; reason?: string } = {}): void {
    const e = runEvent(type, data, {
      runId: this.runId,
      seq: this.events.length + 1,
      at,
      step: where.step ?? null,
      activation: where.activation ?? null,
      attempt: where.attempt ?? null,
      reason: where.reason ?? null,
    });
    this.events.push(e as RunEvent);
  }

  created(at: number): void {
    this.add('run_created', at, { workflowId: 'w', version: 1, definitionHash: 'd', workspaceDir: '/w', input: {} });
  }

  /** One activation of `step` with one attempt that succeeds: 4 events. */
  quickStep(step: string, activation: number, at: number, ms: number): void {
    this.add('step_activated', at, {}, { step, activation });
    this.add('attempt_started', at + 1, { inputHash: 'h', input: null, variant: null, effect: 'none' }, { step, activation, attempt: 1 });
    this.add('attempt_succeeded', at + 1 + ms, { output: 1, evidenceId: `e${this.events.length}`, covers: COVERS }, { step, activation, attempt: 1 });
    this.add('step_settled', at + 1 + ms, { outcome: 'succeeded', edges: [] }, { step, activation });
  }

  succeeded(at: number): void {
    this.add('run_state_changed', at, { state: 'succeeded' });
  }
}

/** A loop of `passes` passes over steps a and b: 4 events per activation, 8 per pass. */
export function loopRun(passes: number): RunEvent[] {
  const log = new LogWriter('big');
  log.created(0);
  let at = 10;
  for (let p = 1; p <= passes; p++) {
    log.quickStep('a', p, at, 5);
    log.quickStep('b', p, at + 7, 3);
    at += 12;
  }
  log.succeeded(at);
  return log.events;
}

/** fetch (retry after a failure), then review (a person), then notify (waits for an event). */
export function mixedRun(): LogWriter {
  const log = new LogWriter();
  log.created(1000);
  log.add('step_activated', 1000, {}, { step: 'fetch', activation: 1 });
  log.add('attempt_started', 1100, { inputHash: 'h', input: null, variant: null, effect: 'idempotent' }, { step: 'fetch', activation: 1, attempt: 1 });
  log.add('attempt_failed', 1600, { error: { code: 'http_503', message: '503' }, retryable: true }, { step: 'fetch', activation: 1, attempt: 1 });
  log.add('retry_scheduled', 1600, { nextAttempt: 2, dueAt: 2600, delayMs: 1000 }, { step: 'fetch', activation: 1, reason: 'http_503' });
  log.add('attempt_started', 2600, { inputHash: 'h', input: null, variant: null, effect: 'idempotent' }, { step: 'fetch', activation: 1, attempt: 2 });
  log.add('attempt_succeeded', 3000, { output: 1, evidenceId: 'e1', covers: { inputHash: 'h', definitionVersion: 1, inputRevision: 1 } }, { step: 'fetch', activation: 1, attempt: 2 });
  log.add('step_settled', 3000, { outcome: 'succeeded', edges: [] }, { step: 'fetch', activation: 1 });
  log.add('step_activated', 3000, {}, { step: 'review', activation: 1 });
  log.add('attempt_started', 3000, { inputHash: 'h', input: null, variant: null, effect: 'none' }, { step: 'review', activation: 1, attempt: 1 });
  log.add('task_opened', 3000, { task: 'approve', title: 'Check it' }, { step: 'review', activation: 1, attempt: 1 });
  log.add('engine_resumed', 4000, { interrupted: 0 });
  log.add('run_input_revised', 4500, { inputRevision: 2, input: {} }, { reason: 'typo' });
  log.add('task_decided', 5000, { decision: 'approved', by: 'ann' }, { step: 'review', activation: 1, attempt: 1 });
  log.add('attempt_succeeded', 5000, { output: 1, evidenceId: 'e2', covers: { inputHash: 'h', definitionVersion: 1, inputRevision: 1 } }, { step: 'review', activation: 1, attempt: 1 });
  log.add('step_settled', 5000, { outcome: 'succeeded', edges: [] }, { step: 'review', activation: 1 });
  log.add('step_activated', 5000, {}, { step: 'notify', activation: 1 });
  log.add('attempt_started', 5000, { inputHash: 'h', input: null, variant: null, effect: 'none' }, { step: 'notify', activation: 1, attempt: 1 });
  log.add('event_awaited', 5000, { name: 'paid', key: 'o1' }, { step: 'notify', activation: 1, attempt: 1 });
  log.add('event_received', 6000, { name: 'paid', key: 'o1', id: 'ev1', data: {}, receivedAt: 6000 }, { step: 'notify', activation: 1, attempt: 1 });
  return log;
}
