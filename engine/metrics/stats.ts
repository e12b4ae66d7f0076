// The engine's metrics API (for `weft stats` and the UI). A finished run's metrics come from its
// rollup (engine/store/run-rollups.ts, written in the commit that finished it); a run still going
// is folded from its log as of `asOf`. Both are runMetrics of the same log, and workflowStats
// aggregates them, so the report is the one a fold of every log gives (scannedWorkflowReport, the
// reference the tests compare it with). Nothing here writes.
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
  const definition = reportedDefinition(store, workflowId, opts.version);
  const runs = store.rolledUpRuns(workflowId, opts.version).map(([id, json]) => (json === null ? runMetrics(store.readEvents(id), opts.asOf) : rolledUp(json)));
  return { stats: workflowStats(workflowId, runs, definition), runs };
}

/** The same report from a fold of every run's log, as before the rollups: what tests check them against. */
export function scannedWorkflowReport(store: Store, workflowId: string, opts: { version?: number; asOf: number }): WorkflowReport {
  const definition = reportedDefinition(store, workflowId, opts.version);
  const runs = store.runIdsOfWorkflow(workflowId, opts.version).map((id) => runMetrics(store.readEvents(id), opts.asOf));
  return { stats: workflowStats(workflowId, runs, definition), runs };
}

/** The definition a report lists steps and edges from: the version asked for, else the latest. */
export function reportedDefinition(store: Store, workflowId: string, version: number | undefined): Workflow {
  const known = store.workflowVersions();
  const latest = known.get(workflowId);
  if (latest === undefined) {
    const ids = [...known.keys()];
    throw new StoreError('bad-input', `no workflow "${workflowId}" in this store; ${ids.length === 0 ? 'it has none yet (run one with weft run FILE)' : `it has ${ids.join(', ')}`}`);
  }
  const definition = store.loadDefinition(workflowId, version ?? latest)?.workflow;
  if (definition === undefined) throw new StoreError('bad-input', `workflow "${workflowId}" has no version ${version ?? latest} in this store; its latest is ${latest}`);
  return definition;
}

/**
 * A rollup as the store keeps it. Not checked against the RunMetrics schema again (100,000 runs
 * would pay for it on every question): the store wrote it with JSON.stringify of runMetrics, in
 * the transaction of the events it was folded from, and nothing else writes that table.
 */
function rolledUp(json: string): RunMetrics {
  return JSON.parse(json) as RunMetrics;
}
