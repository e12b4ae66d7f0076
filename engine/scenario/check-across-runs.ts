// Assertions across the runs of a scenario, replayed from every run's log in the order it was
// written: how many runs held a run slot at once (limits.maxParallelRuns), which waited in the
// queue and in what order they got a slot, and how many attempts of a resource's steps ran at
// once (limits.concurrency).
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { ScenarioExpectAll } from '../../shared/scenario/scenario-schema.ts';
import { applyEvent } from '../../shared/run/apply-event.ts';
import { newRunModel, type RunModel } from '../../shared/run/run-model.ts';
import { assertion, type AssertionResult } from './assertion-result.ts';
import type { ScenarioRuns } from './scenario-runs.ts';

/** A new run's events before it is queued or activates its entry steps (imports) do not decide whether it holds a slot. */
const CREATION = new Set(['run_created', 'evidence_imported', 'unknown_imported']);
const ATTEMPT_ENDS = new Set(['attempt_succeeded', 'attempt_failed', 'attempt_unknown']);

export interface AcrossRuns {
  maxParallelRuns: number;
  queued: string[];
  waitedForBudget: string[];
  runOrder: string[];
  maxInUse: Record<string, number>;
}

export function acrossRuns(workflow: Workflow, events: readonly RunEvent[], runs: ScenarioRuns): AcrossRuns {
  const resourceOf = new Map(workflow.steps.flatMap((s) => (s.resource === undefined ? [] : [[s.id, s.resource] as const])));
  const models = new Map<string, RunModel>();
  const pending = new Set<string>();
  const holding = new Set<string>();
  const inUse = new Map<string, Set<string>>();
  const out: AcrossRuns = { maxParallelRuns: 0, queued: [], waitedForBudget: [], runOrder: [], maxInUse: {} };
  for (const e of events) {
    let m = models.get(e.runId);
    if (m === undefined) {
      m = newRunModel(e.runId, workflow);
      models.set(e.runId, m);
    }
    applyEvent(m, e);
    if (e.type === 'run_created') pending.add(e.runId);
    else if (!CREATION.has(e.type)) pending.delete(e.runId);
    if (e.type === 'run_queued' && e.data.for === 'budget') {
      if (!out.waitedForBudget.includes(runs.nameOf(e.runId))) out.waitedForBudget.push(runs.nameOf(e.runId));
    } else if (e.type === 'run_queued') out.queued.push(runs.nameOf(e.runId));
    const holds = m.state === 'running' && !m.queued && !pending.has(e.runId);
    if (holds && !holding.has(e.runId) && !out.runOrder.includes(runs.nameOf(e.runId))) out.runOrder.push(runs.nameOf(e.runId));
    if (holds) holding.add(e.runId);
    else holding.delete(e.runId);
    out.maxParallelRuns = Math.max(out.maxParallelRuns, holding.size);
    const resource = e.step === null ? undefined : resourceOf.get(e.step);
    if (resource !== undefined && (e.type === 'attempt_started' || ATTEMPT_ENDS.has(e.type))) {
      const running = inUse.get(resource) ?? new Set<string>();
      const key = `${e.runId} ${e.step ?? ''} ${e.activation ?? 0} ${e.attempt ?? 0}`;
      if (e.type === 'attempt_started') running.add(key);
      else running.delete(key);
      inUse.set(resource, running);
      out.maxInUse[resource] = Math.max(out.maxInUse[resource] ?? 0, running.size);
    }
  }
  return out;
}

export function checkAcrossRuns(x: ScenarioExpectAll, workflow: Workflow, events: readonly RunEvent[], runs: ScenarioRuns): AssertionResult[] {
  if (x.maxParallelRuns === undefined && x.queued === undefined && x.waitedForBudget === undefined && x.runOrder === undefined && x.maxInUse === undefined) return [];
  const seen = acrossRuns(workflow, events, runs);
  const out: AssertionResult[] = [];
  const add = (what: string, expected: unknown, actual: unknown): void => {
    out.push(assertion(what, expected, actual));
  };
  if (x.maxParallelRuns !== undefined) add('most runs holding a run slot at once', x.maxParallelRuns, seen.maxParallelRuns);
  if (x.queued !== undefined) add('runs queued for a run slot, in order', x.queued, seen.queued);
  if (x.waitedForBudget !== undefined) add('runs that waited for a daily budget, in order', x.waitedForBudget, seen.waitedForBudget);
  if (x.runOrder !== undefined) add('runs in the order they got a run slot', x.runOrder, seen.runOrder.filter((n) => x.runOrder?.includes(n)));
  for (const [resource, n] of Object.entries(x.maxInUse ?? {})) add(`most attempts on resource "${resource}" at once`, n, seen.maxInUse[resource] ?? 0);
  return out;
}
