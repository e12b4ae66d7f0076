// The engine's metrics API (for `weft stats` and the UI): reads run logs from the store and folds
// them with runMetrics / workflowStats. Nothing here writes.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';
import { runMetrics, type RunMetrics } from './run-metrics.ts';
import { workflowStats } from './workflow-stats.ts';
import type { WorkflowReport } from '../../shared/api/workflow-stats.ts';

export function runMetricsOf(store: Store, runId: string, asOf: number): RunMetrics {
  return runMetrics(store.readEvents(store.resolveRunId(runId)), asOf);
}

export type { WorkflowReport } from '../../shared/api/workflow-stats.ts';

/** The figures of a workflow over its runs (of one version if given), as of `asOf`. */
export function workflowReport(store: Store, workflowId: string, opts: { version?: number; asOf: number }): WorkflowReport {
  const known = store.workflowVersions();
  const latest = known.get(workflowId);
  if (latest === undefined) {
    const ids = [...known.keys()];
    throw new StoreError('bad-input', `no workflow "${workflowId}" in this store; ${ids.length === 0 ? 'it has none yet (run one with weft run FILE)' : `it has ${ids.join(', ')}`}`);
  }
  const version = opts.version ?? latest;
  const definition: Workflow | undefined = store.loadDefinition(workflowId, version)?.workflow;
  if (definition === undefined) throw new StoreError('bad-input', `workflow "${workflowId}" has no version ${version} in this store; its latest is ${latest}`);
  const runs = store.runIdsOfWorkflow(workflowId, opts.version).map((id) => runMetrics(store.readEvents(id), opts.asOf));
  return { stats: workflowStats(workflowId, runs, definition), runs };
}
