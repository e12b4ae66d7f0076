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
