// Folds a run's log, or any prefix of it, into its model: what a restarting engine, `weft
// inspect` and the app's time travel (the run as it was at event N) all read.
import type { Workflow } from '../definition/workflow-schema.ts';
import type { RunEvent } from '../events/run-event.ts';
import { applyEvent } from './apply-event.ts';
import { newRunModel, type RunModel } from './run-model.ts';

/**
 * The definition a run's log starts on, given `latest`, the one it runs on now (what a run's
 * detail carries): the definition the log's first run_migrated left, if it was migrated, else
 * `latest`. Time travel folds a prefix of the log with it.
 *
 * @example foldEvents(startDefinition(detail.definition, log), log.slice(0, n))
 */
export function startDefinition(latest: Workflow, events: readonly RunEvent[]): Workflow {
  const first = events.find((e) => e.type === 'run_migrated');
  return first?.type === 'run_migrated' ? first.data.fromDefinition : latest;
}

/**
 * The model of a run after `events`, which start at its run_created event (seq 1) and have no gap.
 * `workflow` is the run's definition snapshot (the version run_created names).
 *
 * @example
 * const atTen = foldEvents(definition, log.slice(0, 10)); // the run as it was after event 10
 */
export function foldEvents(workflow: Workflow, events: readonly RunEvent[]): RunModel {
  const created = events[0];
  if (created?.type !== 'run_created') throw new Error('a run log starts with its run_created event; this one does not');
  if (created.data.workflowId !== workflow.id || created.data.version !== workflow.version) {
    throw new Error(`run ${created.runId} runs ${created.data.workflowId} v${created.data.version}, not ${workflow.id} v${workflow.version}; fold it with its own definition snapshot`);
  }
  const model = newRunModel(created.runId, workflow);
  for (const e of events) applyEvent(model, e);
  return model;
}
