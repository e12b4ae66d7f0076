// A run's restart record, derived from its events alone: for each step its state, evidence and
// what that evidence covers, its attempts, and the next permitted action with its reason ("ready
// for investigation: attempt 2 outcome unknown"). A resumed engine, an operator and the timeline
// all read this one record. `weft inspect` prints it; the shape is shared/api/restart-record.ts's schema, and RunDetail (run-detail.ts)
// adds to it.
import type { Step } from '../definition/workflow-schema.ts';
import type { AttemptView, RestartRecord, RevalidationView } from '../api/restart-record.ts';
import { indexDefinition } from './definition-index.ts';
import { joinRefusal } from './join-readiness.ts';
import { shortJson } from './partial-so-far.ts';
import { jsonOf } from './json-of.ts';
import { attemptId, type AttemptRecord, type Revalidation, type RunModel, type StepRuntime } from './run-model.ts';

export type { AttemptView, RestartRecord, StepView } from '../api/restart-record.ts';

const isoAt = (ms: number): string => new Date(ms).toISOString();
const iso = (ms: number | null): string | null => (ms === null ? null : isoAt(ms));

/** The runtime of a step of the run's definition (newRunModel made one for each). */
export function stepRuntime(run: RunModel, stepId: string): StepRuntime {
  const s = run.steps.get(stepId);
  if (s === undefined) throw new Error(`run ${run.runId} has no runtime for its step "${stepId}"`);
  return s;
}

/** How much of a step's attempt list a record or a detail carries. */
export interface AttemptsCut {
  /** Only each step's latest this many attempts (the server's detail); all of them when left out. */
  latestAttempts?: number;
}

/** The attempts a record shows of `attempts` under `cut`: the latest ones, without touching the others. */
export function shownAttempts<T>(attempts: readonly T[], cut: AttemptsCut): readonly T[] {
  const n = cut.latestAttempts;
  return n === undefined || attempts.length <= n ? attempts : attempts.slice(attempts.length - n);
}

/** One attempt of step `stepId` as the restart record shows it. */
export function attemptView(stepId: string, a: AttemptRecord): AttemptView {
  return {
    id: attemptId(stepId, a),
    activation: a.activation,
    number: a.number,
    state: a.state,
    startedAt: isoAt(a.startedAt),
    endedAt: iso(a.endedAt),
    inputHash: a.inputHash,
    variant: a.variant,
    error: a.error,
    ...(a.pinned === true ? { pinned: true } : {}),
    ...(a.state === 'partial' && a.remaining !== undefined ? { remaining: jsonOf(a.remaining) } : {}),
  };
}

/** A step's latest revalidate check as the restart record shows it. */
export function revalidationView(r: Revalidation): RevalidationView {
  return {
    at: isoAt(r.at),
    activation: r.activation,
    trigger: r.trigger,
    ...(r.waitedMs === undefined ? {} : { waitedMs: r.waitedMs }),
    check: r.check,
    inputs: r.inputs,
    verdict: r.verdict,
    why: r.why,
  };
}

/**
 * The restart record of a run model: what `weft inspect --json` prints (every attempt). With
 * `cut.latestAttempts`, each step carries only its latest attempts (the server's summary).
 *
 * @example
 * restartRecord(foldEvents(definition, log)).steps[0].next; // "done: evidence …"
 */
export function restartRecord(run: RunModel, cut: AttemptsCut = {}): RestartRecord {
  const debug = run.debug;
  return {
    run: {
      id: run.runId,
      workflowId: run.workflow.id,
      version: run.workflow.version,
      state: run.state,
      inputRevision: run.inputRevision,
      ...(run.migrations.length === 0
        ? {}
        : { migrations: run.migrations.map((m) => ({ seq: m.seq, at: isoAt(m.at), fromVersion: m.fromVersion, toVersion: m.toVersion, by: m.by, reason: m.reason })) }),
      ...(run.escalations.length === 0 ? {} : { escalations: run.escalations.map((x) => ({ ...x, at: isoAt(x.at) })) }),
      ...(run.notes.length === 0 ? {} : { notes: run.notes.map((n) => ({ ...n, at: isoAt(n.at) })) }),
      ...(debug === null
        ? {}
        : {
            debug: {
              breakpoints: [...debug.breakpoints],
              pins: Object.keys(debug.pins),
              pausedAt: debug.pausedAt === null ? null : { step: debug.pausedAt.stepId, activation: debug.pausedAt.activation },
              stepping: debug.stepping,
            },
          }),
    },
    steps: run.workflow.steps.map((step) => {
      const s = stepRuntime(run, step.id);
      return {
        id: step.id,
        state: s.state,
        activation: s.activation,
        attempts: shownAttempts(s.attempts, cut).map((a) => attemptView(step.id, a)),
        evidence: s.evidence === null
          ? null
          : {
              id: s.evidence.id,
              attempt: `${s.evidence.fromRun === run.runId ? '' : `${s.evidence.fromRun}:`}${attemptId(step.id, { activation: s.evidence.activation, number: s.evidence.attempt })}`,
              covers: s.evidence.covers,
              ...(s.evidence.pinned === true ? { pinned: true } : {}),
              ...(s.evidence.offsetBy === undefined ? {} : { offsetBy: s.evidence.offsetBy }),
            },
        next: nextAction(run, step, s),
        ...(s.passedOver === null ? {} : { passedOver: { reason: s.passedOver.reason } }),
        ...(s.superseded === null ? {} : { superseded: { activation: s.superseded.activation, outcome: s.superseded.outcome, cause: s.superseded.cause } }),
        ...(s.revalidation === null ? {} : { revalidation: revalidationView(s.revalidation) }),
      };
    }),
  };
}

/**
 * The next permitted action for a step, in words, with its reason. A step that is not on the path
 * any more (passed over), or whose settlement an operator's re-decision is taking back
 * (superseded), says so first, with what it did: work that happened is never hidden.
 */
function nextAction(run: RunModel, step: Step, s: StepRuntime): string {
  const now = currentAction(run, step, s);
  const sup = s.superseded;
  const did = (activation: number, outcome: string): string => (step.kind === 'end' && outcome === 'succeeded' ? `reached in activation ${activation}` : `${outcome} in activation ${activation}`);
  if (s.passedOver !== null) {
    return `passed over: ${did(s.lastSettled?.activation ?? s.activation, s.lastSettled?.outcome ?? s.state)}, then ${s.passedOver.reason}${sup === null ? '' : ` (after the ${sup.cause})`}${step.kind === 'end' ? '; it does not end the run' : ''}`;
  }
  if (sup !== null) {
    return `superseded: ${did(sup.activation, sup.outcome)}; the ${sup.cause} re-decides what led to it, so it is decided again${step.kind === 'end' ? ' and does not end the run' : ''} (${now})`;
  }
  if (s.state === 'skipped' && s.lastSettled !== null && !(s.settledReason ?? '').startsWith('withdrawn:')) {
    return `${now}; it ran before: ${did(s.lastSettled.activation, s.lastSettled.outcome)}`;
  }
  return now;
}

function currentAction(run: RunModel, step: Step, s: StepRuntime): string {
  const last = s.attempts[s.attempts.length - 1];
  const lastId = last === undefined ? '' : attemptId(step.id, last);
  switch (s.state) {
    case 'blocked': {
      const offsets = run.workflow.steps.filter((x) => x.compensation === step.id).map((x) => x.id);
      if (offsets.length > 0) return `standby: compensates ${offsets.join(', ')}; runs only if the run fails after ${offsets.length === 1 ? 'it' : 'they'} took effect`;
      return `blocked: ${awaits(run, step, s)}`;
    }
    case 'ready': {
      const at = run.debug?.pausedAt;
      if (at !== null && at !== undefined && at.stepId === step.id && at.activation === s.activation) {
        return `ready: the debug run is paused at ${run.debug?.breakpoints.includes(step.id) === true ? 'its breakpoint' : 'it (weft step)'}; weft continue starts it, weft step starts it and pauses before the next start`;
      }
      const viaUnknown = unknownUpstream(run, step);
      return viaUnknown === undefined ? 'ready: may start now' : `ready for investigation: attempt ${viaUnknown} outcome unknown`;
    }
    case 'running':
      return `running: attempt ${lastId} started ${iso(last?.startedAt ?? null) ?? ''}${last?.timeoutMs === undefined ? '' : `, times out after ${last.timeoutMs} ms`}`;
    case 'retry_wait':
      return `retry: attempt ${s.activation}.${(last?.number ?? 0) + 1} due ${iso(s.retryDueAt) ?? ''} after ${last?.error?.code ?? 'a failure'}`;
    case 'waiting':
      if (s.held !== null) return `decide: ${s.held.reason}`;
      return `waiting: timer fires ${iso(s.timerDueAt) ?? ''}`;
    case 'succeeded':
      return s.evidence === null
        ? 'done'
        : `done: ${s.evidence.pinned === true ? 'pinned ' : ''}evidence ${s.evidence.id} covers input ${s.evidence.covers.inputHash} under definition v${s.evidence.covers.definitionVersion}, input revision ${s.evidence.covers.inputRevision}`;
    case 'unknown':
      return `investigate: attempt ${lastId || '(carried)'} outcome unknown (${last?.error?.message ?? 'the same effect was unknown before'}); it is never retried automatically${s.escalated ? ' and a person must resolve it' : ''}`;
    case 'failed':
      if (step.kind === 'join') {
        const missing = joinRefusal(run, indexDefinition(run.workflow), step, s);
        const head = s.escalated ? 'needs a person' : 'failed';
        return missing === undefined ? `${head}: its branches are all in now; retry it` : `${head}: ${missing}; retry, resolve or skip the missing branch and the join goes on by itself`;
      }
      // Settled before an attempt started: the reason is the settlement's, not an earlier attempt's error.
      if (s.outcome === 'budget_exceeded') return `${s.escalated ? 'needs a person' : 'failed'}: budget_exceeded: ${s.settledReason ?? "the run's budget would be exceeded"}; the step was not called`;
      if (s.outcome === 'stale' && s.revalidation !== null) return `${s.escalated ? 'needs a person' : 'stale'}: revalidation after ${s.revalidation.trigger}: ${s.revalidation.why}`;
      if (s.outcome === 'partial' && last?.state === 'partial') {
        return `${s.escalated ? 'needs a person' : 'partial'}: attempt ${lastId} finished part of the work${last.remaining === undefined ? '' : ` (remaining: ${shortJson(last.remaining)})`}; a retry continues from its output`;
      }
      return `${s.escalated ? 'needs a person' : 'failed'}: ${last?.error ? `${last.error.code}: ${last.error.message}` : (s.outcome ?? 'failed')}`;
    case 'skipped':
      return s.settledReason?.startsWith('withdrawn:') === true ? `skipped: ${s.settledReason}` : 'skipped: no incoming path was taken';
    default:
      return s.state;
  }
}

function awaits(run: RunModel, step: Step, s: StepRuntime): string {
  const index = indexDefinition(run.workflow);
  const waitingFor = (index.in.get(step.id) ?? [])
    .filter((e) => !e.loop)
    .filter((e) => ((run.edges.get(e.edge.id)?.seq ?? 0) <= s.openedSeq))
    .map((e) => {
      const from = run.steps.get(e.edge.from);
      const need = [...e.outcomes].join('|');
      const what = need === 'succeeded' ? 'accepted result' : `${need} outcome`;
      return `${what} of ${e.edge.from}${from && from.state !== 'blocked' ? ` (now ${from.state})` : ''}`;
    });
  if (waitingFor.length === 0) return index.entries.includes(step.id) ? 'not started' : 'awaits its prerequisites';
  return `awaits ${waitingFor.join(' and ')}`;
}

/** The unknown attempt upstream whose edge made this step ready, if any. */
function unknownUpstream(run: RunModel, step: Step): string | undefined {
  const index = indexDefinition(run.workflow);
  for (const e of index.in.get(step.id) ?? []) {
    const d = run.edges.get(e.edge.id);
    const from = run.steps.get(e.edge.from);
    if (d?.taken && from?.outcome === 'unknown') {
      const a = from.attempts[from.attempts.length - 1];
      return a === undefined ? e.edge.from : attemptId(e.edge.from, a);
    }
  }
  return undefined;
}
