// What a run_migrated event does to a run's model: from it on, the run runs on the new version.
// Each step the new version keeps (by `mapping`, old id → new id) keeps its runtime (attempts,
// evidence, output, task) under its new id; a new step starts blocked, or, upstream of completed
// work, skipped or ready by the recorded decision; a dropped step leaves the model (its attempts
// stay in the log). Edge decisions and loop traversals are kept for the edges the new version
// has between the same (mapped) steps. Only top-level fields of the model are replaced, never a
// step's runtime in place, so a plan can apply it to a shallow copy and leave the run as it is.
import type { RunEventOf } from '../events/run-event.ts';
import { newStepRuntime, type Evidence, type RunModel, type StepRuntime } from './run-model.ts';

/** A new step's runtime under the decision recorded for it (none: it waits for its edges). */
function newStep(id: string, decision: 'skip' | 'run' | undefined, e: RunEventOf<'run_migrated'>): StepRuntime {
  const s = newStepRuntime(id);
  if (decision === 'skip') {
    s.state = 'skipped';
    s.outcome = 'skipped';
    s.openedSeq = e.seq;
    s.settledSeq = e.seq;
    s.settledReason = `new in version ${e.data.toVersion}, upstream of work done before the migration: skipped (decided by ${e.data.by})`;
  } else if (decision === 'run') {
    s.activation = 1;
    s.state = 'ready';
    s.openedSeq = e.seq;
    s.dueSince = e.at;
  }
  return s;
}

/**
 * Applies a run_migrated event to `run` (see the header). Throws, naming the event, when the log
 * cannot be right: another workflow, another version than the run is on, a mapping of a step the
 * run does not have.
 *
 * @example
 * applyMigration(model, event); model.workflow.version; // event.data.toVersion
 */
export function applyMigration(run: RunModel, e: RunEventOf<'run_migrated'>): void {
  const d = e.data;
  const where = `run ${run.runId} event ${e.seq} (run_migrated)`;
  if (d.definition.id !== run.workflow.id) throw new Error(`${where} moves the run to workflow "${d.definition.id}", but it runs "${run.workflow.id}"`);
  if (d.fromVersion !== run.workflow.version) throw new Error(`${where} migrates from version ${d.fromVersion}, but the run is on version ${run.workflow.version}`);
  if (d.definition.version !== d.toVersion) throw new Error(`${where} names version ${d.toVersion} but carries version ${d.definition.version}`);
  const oldOf = new Map<string, string>();
  for (const [from, to] of Object.entries(d.mapping)) {
    if (!run.steps.has(from)) throw new Error(`${where} maps step "${from}", which the run does not have`);
    oldOf.set(to, from);
  }
  const newOf = (oldId: string): string | undefined => d.mapping[oldId];
  const steps = new Map<string, StepRuntime>();
  for (const step of d.definition.steps) {
    const oldId = oldOf.get(step.id);
    const old = oldId === undefined ? undefined : run.steps.get(oldId);
    steps.set(step.id, old === undefined ? newStep(step.id, d.decisions[step.id], e) : old.id === step.id ? old : { ...old, id: step.id });
  }
  const view: RunModel['view'] = {};
  for (const [id, v] of Object.entries(run.view)) {
    const to = newOf(id);
    if (to !== undefined) view[to] = v;
  }
  const evidenceByStep = new Map<string, Evidence[]>();
  for (const [id, list] of run.evidenceByStep) {
    const to = newOf(id);
    if (to !== undefined) evidenceByStep.set(to, list);
  }
  // An edge keeps its decision when the new version has it, between the same steps.
  const oldEdges = new Map(run.workflow.edges.map((x) => [x.id, x]));
  const kept = new Set(
    d.definition.edges.filter((x) => {
      const was = oldEdges.get(x.id);
      return was !== undefined && newOf(was.from) === x.from && newOf(was.to) === x.to;
    }).map((x) => x.id),
  );
  const fromVersion = run.workflow.version;
  run.workflow = d.definition;
  run.definitionHash = d.definitionHash;
  run.steps = steps;
  run.view = view;
  run.evidenceByStep = evidenceByStep;
  run.edges = new Map([...run.edges].filter(([id]) => kept.has(id)));
  run.traversals = new Map([...run.traversals].filter(([id]) => kept.has(id)));
  run.unknowns = run.unknowns.flatMap((u) => {
    const to = newOf(u.stepId);
    return to === undefined ? [] : [{ ...u, stepId: to }];
  });
  run.migrations = [
    ...run.migrations,
    {
      seq: e.seq,
      at: e.at,
      fromVersion,
      toVersion: d.toVersion,
      by: d.by,
      reason: e.reason,
      ran: Object.entries(d.decisions).filter(([, v]) => v === 'run').map(([k]) => k),
    },
  ];
}
