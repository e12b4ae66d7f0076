// What expressions read in a run: its input, the steps' outputs, the run's own facts, and
// `$activation`, the evaluating step's activation number.
import { ACTIVATION, type RunContext } from './expressions.ts';
import type { LiveRun } from './live-run.ts';

export function runContext(live: LiveRun, extra: Record<string, unknown> = {}, activation?: number): RunContext {
  const m = live.model;
  // The `run` object is rebuilt only when the input revision changes, not per expression.
  if (live.runInfo?.inputRevision !== m.inputRevision) {
    live.runInfo = { id: m.runId, workflowId: m.workflow.id, version: m.workflow.version, inputRevision: m.inputRevision, startedAt: new Date(m.createdAt).toISOString() };
  }
  return { input: m.input, steps: m.view, run: live.runInfo, ...extra, ...(activation === undefined ? {} : { [ACTIVATION]: activation }) };
}
