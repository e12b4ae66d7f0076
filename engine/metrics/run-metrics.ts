// What one run cost and where its time went, derived from its event log alone (the log is the
// truth; no projection or clock reading is needed except `asOf` for a run still going).
//
// Time: every instant between the run's creation and its end (or `asOf`) is counted once, in the
// first of these that applies: active (an attempt of a step that does work is open), waiting (a
// person, an event or a timer is awaited, or a retry backs off), queued (the run waits for a run
// slot, or an activated step has not started its attempt yet), attention (none of these: the run
// is paused or needs a person to act). So active + waiting + queued + attention = duration.
import type { RunState } from '../../shared/definition/names.ts';
import type { RunEvent, SettleOutcome } from '../../shared/events/run-event.ts';

export const TIME_KINDS = ['active', 'waiting', 'queued'] as const;
export type TimeKind = (typeof TIME_KINDS)[number];

export interface StepMetrics {
  /** Activations that ran (a retry by an operator, a loop pass or a revision starts a new one). */
  activations: number;
  attempts: number;
  /** Automatic retries after a failed attempt (a rerun after an engine restart is not one). */
  retries: number;
  /** Sum over activations of activation to settlement (to the run's end while one is open). */
  durationMs: number;
  activeMs: number;
  waitingMs: number;
  queueMs: number;
  /** Activation to settlement, one per settled activation, in order: what p50/p95 are taken over. */
  latenciesMs: number[];
  /** The outcome of the latest settlement, null while the step has not settled. */
  outcome: SettleOutcome | null;
  /** Set on a compensation step: the step it offsets. */
  compensates?: string;
}

export interface RunFailure {
  /** The step where the run went wrong: the one whose failure nothing handled, else the last one with a bad outcome. */
  step: string | null;
  outcome: SettleOutcome | null;
  reason: string;
}

export interface RunMetrics {
  runId: string;
  workflowId: string;
  version: number;
  state: RunState;
  finished: boolean;
  startedAt: number;
  /** When the run reached its final state; null while it is not finished. */
  endedAt: number | null;
  durationMs: number;
  activeMs: number;
  waitingMs: number;
  queueMs: number;
  attentionMs: number;
  retries: number;
  /** Steps offset by a compensation step. */
  compensations: number;
  humanInterventions: number;
  interventions: { decisions: number; reassignments: number; operatorActions: number; revisions: number };
  /** Edges taken, in the order they were taken (repeats for loops). */
  path: string[];
  /** Per edge: how often its source settled with a decision on it, and how often it was taken. */
  edges: Record<string, { decided: number; taken: number }>;
  steps: Record<string, StepMetrics>;
  failure: RunFailure | null;
}

const FINISHED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);
const BAD: ReadonlySet<string> = new Set(['failed', 'unknown', 'timed_out', 'rejected', 'expired']);
const NOT_DECIDED: ReadonlySet<string> = new Set(['skipped', 'cancelled']);

interface Interval {
  start: number;
  end: number | null;
  kind: TimeKind;
  step: string | null;
}

const attemptKey = (e: RunEvent): string => `${e.step ?? ''}/${e.activation ?? 0}.${e.attempt ?? 0}`;
const activationKey = (e: RunEvent): string => `${e.step ?? ''}/${e.activation ?? 0}`;

/**
 * The metrics of one run from its events (in seq order). `asOf` closes what is still open in a
 * run that has not finished; it defaults to the last event's time.
 */
export function runMetrics(events: readonly RunEvent[], asOf?: number): RunMetrics {
  const first = events[0];
  if (first?.type !== 'run_created') throw new Error('a run log starts with run_created; this one does not');
  const created = first.data as RunEvent<'run_created'>['data'];
  const last = events[events.length - 1] ?? first;
  let state: RunState = 'running';
  let stateAt = first.at;
  let failingStep: string | null = null;
  let lastBad: { step: string; outcome: SettleOutcome } | null = null;
  let stateReason = '';
  const intervals: Interval[] = [];
  const openAttempts = new Map<string, Interval>();
  const openActivations = new Map<string, { at: number; queue: Interval | null }>();
  const backoffs = new Map<string, Interval>();
  const lastFailure = new Map<string, string>();
  let queue: Interval | null = null;
  const steps: Record<string, StepMetrics> = {};
  const edges: Record<string, { decided: number; taken: number }> = {};
  const path: string[] = [];
  const interventions = { decisions: 0, reassignments: 0, operatorActions: 0, revisions: 0 };
  let retries = 0;
  let compensations = 0;
  const step = (id: string): StepMetrics => {
    steps[id] ??= { activations: 0, attempts: 0, retries: 0, durationMs: 0, activeMs: 0, waitingMs: 0, queueMs: 0, latenciesMs: [], outcome: null };
    return steps[id];
  };
  const close = (i: Interval | null | undefined, at: number): void => {
    if (i && i.end === null) i.end = at;
  };
  for (const e of events) {
    switch (e.type) {
      case 'run_state_changed':
        state = (e.data as RunEvent<'run_state_changed'>['data']).state;
        stateAt = e.at;
        stateReason = e.reason ?? '';
        break;
      case 'run_queued':
        queue = { start: e.at, end: null, kind: 'queued', step: null };
        intervals.push(queue);
        break;
      case 'run_dequeued':
        close(queue, e.at);
        break;
      case 'run_failing':
        failingStep = (e.data as RunEvent<'run_failing'>['data']).stepId;
        break;
      case 'step_activated': {
        const s = step(e.step ?? '');
        s.activations += 1;
        const compensates = (e.data as RunEvent<'step_activated'>['data']).compensates;
        if (compensates !== undefined) s.compensates = compensates;
        const q: Interval = { start: e.at, end: null, kind: 'queued', step: e.step };
        intervals.push(q);
        openActivations.set(activationKey(e), { at: e.at, queue: q });
        break;
      }
      case 'attempt_started': {
        const s = step(e.step ?? '');
        s.attempts += 1;
        const act = openActivations.get(activationKey(e));
        if (act) {
          close(act.queue, e.at);
          act.queue = null;
        }
        close(backoffs.get(activationKey(e)), e.at);
        const i: Interval = { start: e.at, end: null, kind: 'active', step: e.step };
        intervals.push(i);
        openAttempts.set(attemptKey(e), i);
        break;
      }
      case 'task_opened':
      case 'event_awaited':
      case 'timer_set': {
        const i = openAttempts.get(attemptKey(e));
        if (i) i.kind = 'waiting';
        break;
      }
      case 'attempt_succeeded':
      case 'attempt_failed':
      case 'attempt_unknown': {
        close(openAttempts.get(attemptKey(e)), e.at);
        openAttempts.delete(attemptKey(e));
        lastFailure.set(activationKey(e), e.type === 'attempt_failed' ? (e.data as RunEvent<'attempt_failed'>['data']).error.code : '');
        break;
      }
      case 'retry_scheduled': {
        if (lastFailure.get(activationKey(e)) !== 'interrupted') {
          retries += 1;
          step(e.step ?? '').retries += 1;
        }
        const i: Interval = { start: e.at, end: null, kind: 'waiting', step: e.step };
        intervals.push(i);
        backoffs.set(activationKey(e), i);
        break;
      }
      case 'step_settled': {
        const d = e.data as RunEvent<'step_settled'>['data'];
        const id = e.step ?? '';
        const act = openActivations.get(activationKey(e));
        if (act) {
          close(act.queue, e.at);
          const s = step(id);
          s.latenciesMs.push(e.at - act.at);
          s.durationMs += e.at - act.at;
          openActivations.delete(activationKey(e));
        }
        step(id).outcome = d.outcome;
        if (BAD.has(d.outcome)) lastBad = { step: id, outcome: d.outcome };
        if (!NOT_DECIDED.has(d.outcome)) {
          for (const x of d.edges) {
            const c = (edges[x.id] ??= { decided: 0, taken: 0 });
            c.decided += 1;
            if (x.taken) {
              c.taken += 1;
              path.push(x.id);
            }
          }
        }
        break;
      }
      case 'step_compensated':
        compensations += 1;
        break;
      case 'task_decided':
        interventions.decisions += 1;
        break;
      case 'task_reassigned':
        interventions.reassignments += 1;
        break;
      case 'operator_action':
        interventions.operatorActions += 1;
        break;
      case 'run_input_revised':
        interventions.revisions += 1;
        break;
      default:
        break;
    }
  }
  const finished = FINISHED.has(state);
  const end = finished ? stateAt : Math.max(asOf ?? last.at, last.at);
  for (const [key, act] of openActivations) {
    const id = key.slice(0, key.lastIndexOf('/'));
    step(id).durationMs += end - act.at;
  }
  for (const i of intervals) {
    const until = Math.min(i.end ?? end, end);
    const ms = Math.max(0, until - Math.min(i.start, until));
    if (i.step === null) continue;
    const s = step(i.step);
    if (i.kind === 'active') s.activeMs += ms;
    else if (i.kind === 'waiting') s.waitingMs += ms;
    else s.queueMs += ms;
  }
  const time = splitTime(intervals, first.at, end);
  // A run that failed by reaching a failed end step went wrong where the last bad outcome was (the
  // deadline that expired, the check that failed); with none, the routing to that end is the place.
  const failingOutcome = failingStep === null ? null : (steps[failingStep]?.outcome ?? null);
  const at = failingStep !== null && failingOutcome !== null && BAD.has(failingOutcome) ? { step: failingStep, outcome: failingOutcome } : (lastBad ?? (failingStep === null ? null : { step: failingStep, outcome: failingOutcome }));
  const failure: RunFailure | null = state === 'failed' || state === 'needs_attention' ? { step: at?.step ?? null, outcome: at?.outcome ?? null, reason: stateReason } : null;
  return {
    runId: first.runId,
    workflowId: created.workflowId,
    version: created.version,
    state,
    finished,
    startedAt: first.at,
    endedAt: finished ? stateAt : null,
    durationMs: end - first.at,
    activeMs: time.active,
    waitingMs: time.waiting,
    queueMs: time.queued,
    attentionMs: end - first.at - time.active - time.waiting - time.queued,
    retries,
    compensations,
    humanInterventions: interventions.decisions + interventions.reassignments + interventions.operatorActions + interventions.revisions,
    interventions,
    path,
    edges,
    steps,
    failure,
  };
}

/** Splits [from, to] by the highest-ranked kind of interval open at each instant (a sweep). */
function splitTime(intervals: readonly Interval[], from: number, to: number): Record<TimeKind, number> {
  const rank: Record<TimeKind, number> = { active: 0, waiting: 1, queued: 2 };
  const marks: [number, number, number][] = [];
  for (const i of intervals) {
    const a = Math.max(i.start, from);
    const b = Math.min(i.end ?? to, to);
    if (b <= a) continue;
    marks.push([a, rank[i.kind], 1], [b, rank[i.kind], -1]);
  }
  marks.sort((x, y) => x[0] - y[0]);
  const open = [0, 0, 0];
  const out: Record<TimeKind, number> = { active: 0, waiting: 0, queued: 0 };
  let prev = from;
  for (const [at, r, d] of marks) {
    if (at > prev) {
      const top = open.findIndex((n) => n > 0);
      if (top >= 0) out[TIME_KINDS[top] as TimeKind] += at - prev;
      prev = at;
    }
    open[r] = (open[r] ?? 0) + d;
  }
  return out;
}
