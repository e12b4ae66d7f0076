// The deadline of a waiting human or event step: when it passes, the task expires, is rejected,
// or (onExpire escalate) stays open for a person.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { LiveRun } from './live-run.ts';
import type { RunPort } from './run-port.ts';
import type { AttemptRecord, StepRuntime } from '../../shared/run/run-model.ts';

/** The deadline of a human or event step, from now; none without deadlineMs. */
export function deadlineOf(port: RunPort, step: Step): number | undefined {
  return step.deadlineMs === undefined ? undefined : port.clock.now() + step.deadlineMs;
}

export async function deadlinePassed(port: RunPort, live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord): Promise<void> {
  const onExpire = step.kind === 'human' ? (step.config.onExpire ?? 'expire') : 'expire';
  const at = { step: s.id, activation: a.activation, attempt: a.number };
  const passed = port.emit(live, 'deadline_passed', { onExpire }, { ...at, reason: `deadline of ${step.deadlineMs} ms passed` });
  if (onExpire === 'escalate') {
    port.emit(live, 'step_escalated', { outcome: 'expired' }, { step: s.id, activation: s.activation, reason: `the task of "${s.id}" passed its deadline and onExpire is escalate: it stays open for a person` });
    return;
  }
  if (onExpire === 'reject') {
    const output = { decision: 'rejected', by: 'deadline', reason: 'the deadline passed', at: new Date(passed.at).toISOString() }; // when the deadline passed, as recorded (one reading of the clock)
    port.emit(live, 'attempt_failed', { error: { code: 'rejected', message: 'the deadline passed' }, retryable: false, output }, { ...at, reason: 'rejected: the deadline passed' });
    await port.settle(live, s, 'rejected', 'the deadline passed (onExpire reject)');
    return;
  }
  port.emit(live, 'attempt_failed', { error: { code: 'expired', message: 'the deadline passed' }, retryable: false }, { ...at, reason: 'the deadline passed' });
  await port.settle(live, s, 'expired', 'the deadline passed');
}
