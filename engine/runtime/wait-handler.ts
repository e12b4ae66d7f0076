// Wait steps: the attempt sets a timer (a duration, or a time an expression gives) and succeeds
// when it fires.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult } from '../executors/executor.ts';
import { evaluate } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import type { RunPort } from './run-port.ts';
import type { AttemptRecord, StepRuntime } from '../../shared/run/run-model.ts';
import type { AttemptStart, StepHandler } from './step-handler.ts';
import { inputErrorResult } from './input-error-result.ts';

export class WaitHandler implements StepHandler {
  constructor(private readonly port: RunPort) {}

  async start(live: LiveRun, s: StepRuntime, _step: Step, attempt: AttemptStart): Promise<void> {
    const done = (result: AttemptResult): Promise<void> => this.port.finish(live, { stepId: s.id, activation: s.activation, attempt: attempt.number, result });
    const durationMs = attempt.config['durationMs'];
    const until = attempt.config['until'];
    let dueAt: number;
    try {
      dueAt = typeof durationMs === 'number' ? this.port.clock.now() + durationMs : Date.parse(String(await evaluate(typeof until === 'string' ? until : '', attempt.ctx)));
    } catch (e) {
      await done(inputErrorResult(e));
      return;
    }
    if (Number.isNaN(dueAt)) {
      await done(inputErrorResult(new Error('"until" did not give a date')));
      return;
    }
    this.port.emit(live, 'timer_set', { dueAt }, { step: s.id, activation: s.activation, attempt: attempt.number, reason: `fires at ${new Date(dueAt).toISOString()}` });
    this.port.arm(live, s.id, dueAt);
  }

  async timerDue(live: LiveRun, s: StepRuntime, _step: Step, a: AttemptRecord): Promise<void> {
    this.port.emit(live, 'timer_fired', {}, { step: s.id, activation: a.activation, attempt: a.number });
    await this.port.finish(live, { stepId: s.id, activation: a.activation, attempt: a.number, result: { outcome: 'succeeded', output: { firedAt: new Date(this.port.clock.now()).toISOString() } } });
  }
}
