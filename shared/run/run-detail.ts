// A run's RunDetail (shared/api/run-detail.ts): its restart record plus what the app shows without
// reading the log. Pure, from the run model alone, so the app can build it for any prefix of a
// log (the run as it was at event N) with the code the engine serves it with.
import { runCost } from '../cost/run-cost.ts';
import { RUN_STATES, type RunState } from '../definition/names.ts';
import type { AttemptView } from '../api/restart-record.ts';
import type { AttemptDetail, RunDetail, StepDetail } from '../api/run-detail.ts';
import { indexDefinition } from './definition-index.ts';
import { jsonOf } from './json-of.ts';
import { openTasks } from './open-tasks.ts';
import { runPermittedActions, stepPermittedActions } from './permitted-actions.ts';
import { attemptView, restartRecord, shownAttempts, stepRuntime, type AttemptsCut } from './restart-record.ts';
import type { AttemptRecord, RunModel } from './run-model.ts';

const isRunState = (x: string | null): x is RunState => RUN_STATES.some((s) => s === x);

/**
 * The RunDetail of a run model (without the definition snapshot, which the service adds). With
 * `cut.latestAttempts` it is the server's summary: each step carries only its latest attempts,
 * and a step with more says how many in `attemptCount` (its older ones: stepAttempts); the
 * attempts left out are not touched, so the summary of a loop of 10,000 passes costs what one of
 * 20 does. A run whose steps have no more attempts than that gets the same detail either way.
 *
 * @example
 * const detail = runDetail(foldEvents(definition, log.slice(0, n)));
 * detail.steps[0].permittedActions; // what an operator could have done at event n
 */
export function runDetail(run: RunModel, cut: AttemptsCut = {}): RunDetail {
  const record = restartRecord(run, cut);
  const index = indexDefinition(run.workflow);
  const steps = record.steps.map((view): StepDetail => {
    const s = stepRuntime(run, view.id);
    const shown = shownAttempts(s.attempts, cut);
    return {
      ...view,
      attempts: shown.map((a, k): AttemptDetail => {
        const seen = view.attempts[k];
        if (seen === undefined) throw new Error(`the restart record of run ${run.runId} lost attempt ${k + 1} of "${s.id}"`);
        return { ...seen, ...attemptDetail(run, a) };
      }),
      ...(shown.length < s.attempts.length ? { attemptCount: s.attempts.length } : {}),
      outcome: s.outcome,
      escalated: s.escalated,
      compensates: s.compensates,
      permittedActions: stepPermittedActions(run, s),
    };
  });
  const p = run.parent;
  const edges = [...run.edges].flatMap(([id, d]) => {
    const edge = index.edges.get(id)?.edge;
    return edge === undefined ? [] : [{ id, taken: d.taken, why: d.why, from: edge.from, to: edge.to, seq: d.seq, traversals: run.traversals.get(id) ?? 0 }];
  });
  return {
    run: {
      ...record.run,
      input: jsonOf(run.input),
      createdAtMs: run.createdAt,
      updatedAtMs: run.updatedAt,
      key: run.key ?? null,
      priority: run.priority,
      queued: run.queued,
      parent: p === undefined ? null : { runId: p.runId, stepId: p.stepId, activation: p.activation, attempt: p.attempt, ...(p.index === undefined ? {} : { index: p.index }) },
      forkOf: run.forkOf ?? null,
      ...(run.replayOf === undefined ? {} : { replayOf: run.replayOf }),
      ...(run.policy === undefined ? {} : { policy: run.policy }),
      failing: run.failing,
      compensation: run.compensation === null ? null : { pending: [...run.compensation.pending], done: [...run.compensation.done] },
      lastSeq: run.lastSeq,
      permittedActions: runPermittedActions(run),
    },
    steps,
    tasks: openTasks(run),
    children: run.childRuns.map((c) => ({ runId: c.runId, stepId: c.stepId, index: c.index, state: isRunState(c.state) ? c.state : null })),
    edges: edges.sort((a, b) => a.seq - b.seq),
    cost: runCost(run.steps.values()),
  };
}

/**
 * The attempts of step `stepId` at places `from` to `to - 1` of its list, in detail (what
 * `GET /api/runs/:id/steps/:stepId/attempts` pages); only those are touched. The caller checks
 * the step and the places.
 *
 * @example
 * stepAttempts(model, 'fetch', 0, 20); // its first 20 attempts
 */
export function stepAttempts(run: RunModel, stepId: string, from: number, to: number): AttemptDetail[] {
  return stepRuntime(run, stepId).attempts.slice(from, to).map((a) => ({ ...attemptView(stepId, a), ...attemptDetail(run, a) }));
}

/** What RunDetail adds to an attempt of the restart record. */
function attemptDetail(run: RunModel, a: AttemptRecord): Omit<AttemptDetail, keyof AttemptView> {
  const ev = a.evidenceId === null ? undefined : run.evidence.get(a.evidenceId);
  return {
    input: jsonOf(a.input),
    ...(a.output === undefined ? {} : { output: jsonOf(a.output) }),
    evidence: ev === undefined ? null : { id: ev.id, covers: ev.covers, satisfies: ev.satisfies, ...(ev.pinned === true ? { pinned: true } : {}) },
    effect: a.effect,
    idempotencyKey: a.idempotencyKey ?? null,
    timeoutMs: a.timeoutMs ?? null,
    meta: a.meta ?? null,
    queuedAtMs: a.queuedAt,
    startedAtMs: a.startedAt,
    endedAtMs: a.endedAt,
  };
}
