// The only executor a replay has (weft replay, docs/evolution.md): it answers each call of a step
// that does work with the source run's recorded attempt of that step whose input hash is this
// call's, the k-th call with a hash getting the k-th recording with it, after the recorded
// duration in virtual time. Nothing real is called. A call with no recording (a new step, a
// changed input, more calls than recorded) is answered by the `--script` if it names the step;
// otherwise the replay stops there: the call never answers, and `needsRecording` says why.
import { jsonDiff } from '../../shared/run/json-diff.ts';
import type { JsonValue } from '../../shared/api/json-value.ts';
import type { AttemptContext, AttemptResult, Executor } from '../executors/executor.ts';
import { ScriptedExecutor, type Script } from '../scenario/scripted-executor.ts';
import type { Clock } from '../time/clock.ts';
import { timedAnswer } from '../scenario/timed-answer.ts';
import type { RecordedAttempt } from './replay-recordings.ts';

/** Why a call had no recording, as the replay's result names it. */
export interface NeedsRecording {
  stepId: string;
  reason: 'new step' | 'input changed' | 'more attempts than recorded';
  /** For a changed input: the first JSON path where it differs from the recorded one. */
  path?: string;
  /** The whole sentence, for a person. */
  why: string;
}

export interface RecordedExecutorOptions {
  clock: Clock;
  attempts: ReadonlyMap<string, readonly RecordedAttempt[]>;
  /** The input hash the engine recorded for this attempt (attempt_started). */
  inputHashOf: (ctx: AttemptContext) => string | undefined;
  script?: Script;
  /** Called once, with the first call that has no recording and no script. */
  onNeedsRecording: (need: NeedsRecording) => void;
}

export class RecordedExecutor implements Executor {
  /** Calls answered from a recording, from the script, and left without an answer. */
  readonly counts = { recorded: 0, scripted: 0, unanswered: 0 };
  private readonly used = new Map<string, number>();
  private readonly scripted: ScriptedExecutor | undefined;

  constructor(private readonly o: RecordedExecutorOptions) {
    this.scripted = o.script === undefined ? undefined : new ScriptedExecutor(o.clock, o.script);
  }

  execute(ctx: AttemptContext): Promise<AttemptResult> {
    const hash = this.o.inputHashOf(ctx);
    const recorded = this.o.attempts.get(ctx.stepId) ?? [];
    const same = recorded.filter((a) => a.inputHash === hash);
    const key = `${ctx.stepId}\u0000${hash ?? ''}`;
    const n = this.used.get(key) ?? 0;
    const hit = same[n];
    if (hit !== undefined) {
      this.used.set(key, n + 1);
      this.counts.recorded++;
      return this.play(hit, ctx);
    }
    if (this.scripted !== undefined && this.o.script?.has(ctx.stepId) === true) {
      this.counts.scripted++;
      return this.scripted.execute(ctx);
    }
    this.counts.unanswered++;
    this.o.onNeedsRecording(needOf(ctx, recorded, same.length));
    // The replay stops here: the call never answers.
    return new Promise(() => undefined);
  }

  private play(recorded: RecordedAttempt, ctx: AttemptContext): Promise<AttemptResult> {
    return timedAnswer(ctx, this.o.clock, recorded.durationMs, () => recorded.result);
  }
}

function needOf(ctx: AttemptContext, recorded: readonly RecordedAttempt[], sameHash: number): NeedsRecording {
  const stepId = ctx.stepId;
  if (recorded.length === 0) return { stepId, reason: 'new step', why: `step "${stepId}" has no recorded attempt in the source run (a new step, or one the source never reached)` };
  if (sameHash === 0) {
    const first = recorded[recorded.length - 1];
    const diff = first === undefined ? [] : jsonDiff(first.input as JsonValue, ctx.input as JsonValue);
    const path = diff[0]?.path;
    return {
      stepId,
      reason: 'input changed',
      ...(path === undefined ? {} : { path }),
      why: `the input of step "${stepId}" changed${path === undefined ? ' (what it reads of other steps differs)' : ` at ${path}`}: no recorded attempt has it`,
    };
  }
  return { stepId, reason: 'more attempts than recorded', why: `step "${stepId}" was called more often with this input than the source run recorded (${sameHash})` };
}
