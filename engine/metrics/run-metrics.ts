// What one run cost (its attempts' recorded cost and tokens, cost-metrics.ts) and where its time went, derived from its event log alone (the log is the
// truth; no projection or clock reading is needed except `asOf` for a run still going).
//
// Time is split by the spans of shared/run/time-spans.ts (the run's timeline is built on the same
// walk): active + waiting + queued + attention = duration.
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { RunEvent, SettleOutcome } from '../../shared/events/run-event.ts';
import type { RunMetrics, StepMetrics } from '../../shared/api/workflow-stats.ts';
import type { RunFailure } from '../../shared/api/run-summary.ts';
import { spanMs, splitTime, TIME_KIND_OF, TimeSpans } from '../../shared/run/time-spans.ts';
import { RunCostFold } from './cost-metrics.ts';

export { TIME_KINDS, type TimeKind } from '../../shared/run/time-spans.ts';

// The shapes are the shared API's (shared/api/workflow-stats.ts), where each field is described:
// the fold below builds exactly what `weft stats --json` and GET /api/stats answer.
export type { RunMetrics, StepMetrics } from '../../shared/api/workflow-stats.ts';
export type { RunFailure } from '../../shared/api/run-summary.ts';

const BAD: ReadonlySet<string> = new Set(['failed', 'unknown', 'timed_out', 'rejected', 'expired', 'budget_exceeded']);
const NOT_DECIDED: ReadonlySet<string> = new Set(['skipped', 'cancelled']);

const activationKey = (e: RunEvent): string => `${e.step ?? ''}/${e.activation ?? 0}`;

/**
 * The metrics of one run from its events (in seq order). `asOf` closes what is still open in a
 * run that has not finished; it defaults to the last event's time.
 */
export function runMetrics(events: readonly RunEvent[], asOf?: number): RunMetrics {
  const first = events[0];
  if (first?.type !== 'run_created') throw new Error('a run log starts with run_created; this one does not');
  const created = first.data;
  const time = new TimeSpans();
  let failingStep: string | null = null;
  let lastBad: { step: string; outcome: SettleOutcome } | null = null;
  let stateReason = '';
  const openActivations = new Map<string, number>();
  const lastFailure = new Map<string, string>();
  const steps: Record<string, StepMetrics> = {};
  const edges: Record<string, { decided: number; taken: number }> = {};
  const path: string[] = [];
  const interventions = { decisions: 0, reassignments: 0, operatorActions: 0, revisions: 0 };
  let retries = 0;
  let compensations = 0;
  const cost = new RunCostFold();
  const step = (id: string): StepMetrics => {
    steps[id] ??= { activations: 0, attempts: 0, retries: 0, durationMs: 0, activeMs: 0, waitingMs: 0, queueMs: 0, latenciesMs: [], outcome: null };
    return steps[id];
  };
  for (const e of events) {
    time.apply(e);
    switch (e.type) {
      case 'run_state_changed':
        stateReason = e.reason ?? '';
        break;
      case 'run_failing':
        failingStep = e.data.stepId;
        break;
      case 'step_activated': {
        const s = step(e.step ?? '');
        s.activations += 1;
        const compensates = e.data.compensates;
        if (compensates !== undefined) s.compensates = compensates;
        openActivations.set(activationKey(e), e.at);
        break;
      }
      case 'attempt_started':
        step(e.step ?? '').attempts += 1;
        break;
      case 'attempt_succeeded':
      case 'attempt_failed':
      case 'attempt_unknown':
        lastFailure.set(activationKey(e), e.type === 'attempt_failed' ? e.data.error.code : '');
        cost.add(e.step ?? '', e.at, e.data.meta);
        break;
      case 'retry_scheduled':
        if (lastFailure.get(activationKey(e)) !== 'interrupted') {
          retries += 1;
          step(e.step ?? '').retries += 1;
        }
        break;
      case 'step_settled': {
        const d = e.data;
        const id = e.step ?? '';
        const activatedAt = openActivations.get(activationKey(e));
        if (activatedAt !== undefined) {
          const s = step(id);
          s.latenciesMs.push(e.at - activatedAt);
          s.durationMs += e.at - activatedAt;
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
  const state = time.state;
  const finished = isFinishedRunState(state);
  const end = time.end(finished, asOf);
  for (const [key, activatedAt] of openActivations) {
    const id = key.slice(0, key.lastIndexOf('/'));
    step(id).durationMs += end - activatedAt;
  }
  for (const span of time.spans) {
    const kind = TIME_KIND_OF[span.kind];
    if (span.step === null || kind === null) continue;
    const s = step(span.step);
    const ms = spanMs(span, end);
    if (kind === 'active') s.activeMs += ms;
    else if (kind === 'waiting') s.waitingMs += ms;
    else s.queueMs += ms;
  }
  const split = splitTime(time.spans, first.at, end);
  const spent = cost.result();
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
    endedAt: finished ? time.stateAt : null,
    durationMs: end - first.at,
    activeMs: split.active,
    waitingMs: split.waiting,
    queueMs: split.queued,
    attentionMs: end - first.at - split.active - split.waiting - split.queued,
    retries,
    compensations,
    humanInterventions: interventions.decisions + interventions.reassignments + interventions.operatorActions + interventions.revisions,
    interventions,
    path,
    edges,
    steps,
    failure,
    ...(spent === undefined ? {} : { cost: spent }),
  };
}

