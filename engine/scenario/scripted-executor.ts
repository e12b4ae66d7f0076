// Scenario tests replace the work of a step with scripted outcomes, call by call: succeed with an
// output, fail with a code, end unknown, finish part of the work (partial), hang past the timeout, or take some virtual time first;
// a `cases` outcome picks one by conditions over what the call was given (its resolved input,
// retry variant, attempt, activation, and the agent candidate it runs on). Calls are counted per run and step, so each run of a
// scenario plays its script from the start. Everything else (routing, retries, timeouts,
// evidence) is the real engine.
import { attemptErrorCode } from '../../shared/events/attempt-error-codes.ts';
import type { AttemptMeta } from '../../shared/events/attempt-meta.ts';
import type { CaseOutcome, PlainOutcome } from '../../shared/scenario/scripted-outcome-schema.ts';
import type { AttemptContext, AttemptResult, Executor } from '../executors/executor.ts';
import type { Clock } from '../time/clock.ts';
import { evaluate } from '../runtime/expressions.ts';
import { configForAttempt } from '../runtime/retry-policy.ts';
import { timedAnswer } from './timed-answer.ts';

export type ScriptedOutcome = PlainOutcome | CaseOutcome;
export type Script = ReadonlyMap<string, readonly ScriptedOutcome[]>;

/** A call no case of its scripted outcome matched: the scenario fails, naming it. */
export interface ScriptProblem {
  runId: string;
  stepId: string;
  call: number;
  given: { input: unknown; variant: number | null; attempt: number; activation: number; candidate?: string };
  error?: string;
}

export class ScriptedExecutor implements Executor {
  /** Calls seen per step, across runs, for coverage and assertions. */
  readonly calls = new Map<string, number>();
  readonly problems: ScriptProblem[] = [];
  private readonly callsInRun = new Map<string, number>();
  private readonly scriptOf: (runId: string) => Script;

  /** `script`: one script for every run, or the script of each run (a fork or an extra run may have its own). */
  constructor(
    private readonly clock: Clock,
    script: Script | ((runId: string) => Script),
  ) {
    this.scriptOf = typeof script === 'function' ? script : () => script;
  }

  /** Calls of a step in one run. */
  callsIn(runId: string, stepId: string): number {
    return this.callsInRun.get(`${runId}\u0000${stepId}`) ?? 0;
  }

  execute(ctx: AttemptContext): Promise<AttemptResult> {
    this.calls.set(ctx.stepId, (this.calls.get(ctx.stepId) ?? 0) + 1);
    const key = `${ctx.runId}\u0000${ctx.stepId}`;
    const n = (this.callsInRun.get(key) ?? 0) + 1;
    this.callsInRun.set(key, n);
    const plan = this.scriptOf(ctx.runId).get(ctx.stepId) ?? [];
    const planned = plan[Math.min(n, plan.length) - 1] ?? { succeed: null };
    // A plain outcome sets its timer now, as the engine launches the attempt (no extra turn).
    if (!('cases' in planned)) return this.play(planned, ctx);
    return this.pick(planned, ctx, n).then((outcome) =>
      outcome === undefined
        ? { outcome: 'failed', code: 'no_scripted_case', message: `no scripted case of "${ctx.stepId}" matched call ${n}`, retryable: false }
        : this.play(outcome, ctx));
  }

  /** The first case whose condition holds for what this call was given, else `else`. */
  private async pick(planned: CaseOutcome, ctx: AttemptContext, call: number): Promise<PlainOutcome | undefined> {
    const { variant } = configForAttempt({}, ctx.step.retry, ctx.countedAttempt ?? ctx.attempt);
    // `candidate`: the id of the agent candidate the attempt runs on (absent without candidates).
    // `partial`: the partial attempt this one continues ({attempt, output, remaining}), when there is one.
    const given = {
      input: ctx.input,
      variant,
      attempt: ctx.attempt,
      activation: ctx.activation,
      ...(ctx.candidate === undefined ? {} : { candidate: ctx.candidate.id }),
      ...(ctx.partial === undefined ? {} : { partial: ctx.partial }),
    };
    try {
      for (const c of planned.cases) if ((await evaluate(c.when, given)) === true) return c.then;
    } catch (e) {
      this.problems.push({ runId: ctx.runId, stepId: ctx.stepId, call, given, error: (e as Error).message });
      return undefined;
    }
    if (planned.else === undefined) this.problems.push({ runId: ctx.runId, stepId: ctx.stepId, call, given });
    return planned.else;
  }

  private play(outcome: PlainOutcome, ctx: AttemptContext): Promise<AttemptResult> {
    if ('hang' in outcome) return timedAnswer(ctx, this.clock, 0, null);
    return timedAnswer(ctx, this.clock, outcome.takeMs ?? 0, () => {
      if ('succeed' in outcome) return { outcome: 'succeeded', output: outcome.succeed, ...billed(outcome) };
      if ('fail' in outcome) return { outcome: 'failed', code: attemptErrorCode(outcome.fail), message: outcome.message ?? `scripted failure ${outcome.fail}`, retryable: outcome.retryable ?? true, ...billed(outcome) };
      if ('partial' in outcome) return { outcome: 'partial', output: outcome.partial, ...(outcome.remaining === undefined ? {} : { remaining: outcome.remaining }), ...billed(outcome) };
      return { outcome: 'unknown', reason: outcome.unknown };
    });
  }
}

/** The meta of a scripted call that names its usage or cost: what a provider's reply would carry. */
function billed(outcome: { usage?: { inputTokens: number; outputTokens: number } | undefined; cost?: number | undefined }): { meta?: AttemptMeta } {
  if (outcome.usage === undefined && outcome.cost === undefined) return {};
  const meta: AttemptMeta = {};
  if (outcome.usage !== undefined) meta.usage = { ...outcome.usage };
  if (outcome.cost !== undefined) meta.cost = { amount: outcome.cost, currency: 'USD', basis: 'scripted' };
  return { meta };
}
