// Revalidation on resume (docs/long-running.md): a waiting step (human, event, wait) that declares
// `revalidate` checks, as its wait ends well, that what it decided on still holds. The check runs
// when something may have changed meanwhile: the step was migrated to another version of its
// workflow, an engine restarted while it waited, or it waited longer than `afterMs`. Its trigger,
// the values it read and its verdict are recorded (step_revalidated) before the step settles,
// `succeeded` when fresh and `stale` when not. A check may read again first (`fetch`):
// revalidation-fetch.ts runs that read and hands its answer here as `$fetched`.
import jsonata from 'jsonata';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { waitsOnTheWorld } from '../../shared/definition/step-kinds.ts';
import type { EventData, RevalidationTrigger } from '../../shared/events/run-event.ts';
import type { AstNode } from '../../shared/validator/expressions/jsonata-ast.ts';
import { referencesOf } from '../../shared/validator/expressions/references.ts';
import type { AttemptRecord, RunModel, StepRuntime } from '../../shared/run/run-model.ts';
import type { Fetched } from '../../shared/run/revalidation-fetched.ts';
import { evaluate, type RunContext } from './expressions.ts';

/** Why a resuming step runs its check now, and how long it waited; undefined when it need not. */
export interface RevalidationDue {
  trigger: RevalidationTrigger;
  waitedMs: number;
}

/**
 * Whether step `s`, whose waiting attempt `a` ends well at `now`, must run its revalidate check.
 * A migration during the wait comes first, then a restart (`restarted`: an engine recovered the
 * run while the step waited), then a wait longer than `afterMs` (default 0: any wait).
 *
 * @example revalidationDue(run, step, s, a, a.startedAt + 3 * DAY, false) // { trigger: 'wait', waitedMs: 259200000 }
 */
export function revalidationDue(run: Pick<RunModel, 'migrations'>, step: Step, s: Pick<StepRuntime, 'openedSeq'>, a: Pick<AttemptRecord, 'startedAt'>, now: number, restarted: boolean): RevalidationDue | undefined {
  const r = step.revalidate;
  if (r === undefined || !waitsOnTheWorld(step.kind)) return undefined;
  const waitedMs = Math.max(0, now - a.startedAt);
  if (run.migrations.some((m) => m.seq > s.openedSeq)) return { trigger: 'migration', waitedMs };
  if (restarted) return { trigger: 'restart', waitedMs };
  if (waitedMs > (r.afterMs ?? 0)) return { trigger: 'wait', waitedMs };
  return undefined;
}

/** Milliseconds as a person reads a wait: "45 s", "3 h 5 min", "3 d 2 h". */
export function waitWords(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return `${Math.round(ms / 1000)} s`;
  const h = Math.floor(min / 60);
  if (h < 1) return `${min} min`;
  const d = Math.floor(h / 24);
  if (d < 1) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

const triggerWords = (due: RevalidationDue): string =>
  due.trigger === 'wait' ? `a wait of ${waitWords(due.waitedMs)}` : due.trigger === 'restart' ? `an engine restart (waited ${waitWords(due.waitedMs)})` : `a migration of the run (waited ${waitWords(due.waitedMs)})`;

/**
 * Runs the check of `step` against `ctx` (the run's context with the step's new `output`) at
 * `now` on the engine's clock: `$now()` and `$millis()` give that time, `$waitedMs` and
 * `$trigger` what brought the check on. True means fresh; anything else, or an error, stale.
 * The evidence holds the values the check read (each `steps.…`, `input.…`, `output.…` path).
 * With `fetched` (what the check's read gave), `$fetched` is its output; a read that failed makes
 * the step stale without evaluating the check.
 *
 * @example await runRevalidation(step, ctx, due, clock.now()) // { verdict: 'stale', why: '...', ... }
 */
export async function runRevalidation(step: Step, ctx: RunContext, due: RevalidationDue, now: number, fetched?: Fetched): Promise<EventData<'step_revalidated'>> {
  const check = step.revalidate?.check ?? 'true';
  const nowIso = new Date(now).toISOString();
  const bindings = { now: () => nowIso, millis: () => now, waitedMs: due.waitedMs, trigger: due.trigger, ...(fetched === undefined ? {} : { fetched: fetched.output }) };
  const read: Record<string, unknown> = {};
  const inputs = { now: nowIso, waitedMs: due.waitedMs, trigger: due.trigger, read, ...(fetched === undefined ? {} : { fetched }) };
  if (fetched !== undefined && !fetched.ok) {
    const error = fetched.error ?? { code: 'failed', message: 'no answer' };
    // The error's message is in `inputs.fetched`; the why names its code, as a person scans it.
    const why = `the ${fetched.kind} read the check runs first failed (${error.code}) after ${triggerWords(due)}, so the step is not known fresh`;
    return { trigger: due.trigger, waitedMs: due.waitedMs, check, inputs, verdict: 'stale', why };
  }
  let verdict: 'fresh' | 'stale' = 'stale';
  let why: string;
  try {
    for (const ref of referencesOf(jsonata(check).ast() as AstNode)) {
      const path = [ref.root, ...ref.names].join('.');
      if (!(path in read)) read[path] = (await evaluate(path, ctx)) ?? null;
    }
    const value = await evaluate(check, ctx, bindings);
    verdict = value === true ? 'fresh' : 'stale';
    why = value === true
      ? `the check still holds after ${triggerWords(due)}`
      : `the check gave ${value === undefined ? 'nothing' : JSON.stringify(value)}, not true, after ${triggerWords(due)}`;
  } catch (e) {
    why = `the check could not be evaluated after ${triggerWords(due)}, so the step is not known fresh: ${(e as Error).message}`;
  }
  return { trigger: due.trigger, waitedMs: due.waitedMs, check, inputs, verdict, why };
}
