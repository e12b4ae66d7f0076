// A bulk action from selection to result. The runs are selected by a filter over the runs list
// (the same rows and failure `GET /api/runs` answers, newest first) or named by id; each run is
// judged by its action (bulk-actions.ts). A preview writes nothing and says per run what would
// happen or why not; an apply acts on the runs one after another, judging each again as it is
// then, and a run refused (by the judge or by the engine) is a row of the result, never the end
// of the others. The CLI (`weft bulk`) and the server (`POST /api/bulk/preview|apply`) both call
// these, so a bulk action answers the same from either.
import { BulkRequest, DEFAULT_BULK_LIMIT, bulkCounts, type BulkFilter, type BulkResult, type BulkRow } from '../../shared/api/bulk-action.ts';
import { MAX_RUN_PAGE } from '../../shared/api/run-summary.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { EngineService } from './engine-service.ts';
import { parseCommand, type CommandInput } from './parse-command.ts';
import { runSummaryPage } from './read-model.ts';
import type { RunReader } from './run-reader.ts';
import { judgeRun } from './bulk-actions.ts';
import { serviceErrorOf } from './service-error.ts';

/** The ids of the runs a filter selects, newest first, at most its limit (the runs list's query, GET /api/runs, with the same filters). */
export function selectRuns(reader: RunReader, filter: BulkFilter, now: number): string[] {
  const limit = filter.limit ?? DEFAULT_BULK_LIMIT;
  const after = filter.createdAfter === undefined ? undefined : Date.parse(filter.createdAfter);
  const before = filter.createdBefore === undefined ? undefined : Date.parse(filter.createdBefore);
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = runSummaryPage(reader.store, {
      ...(filter.workflow === undefined ? {} : { workflow: filter.workflow }),
      ...(filter.state === undefined ? {} : { state: filter.state }),
      ...(filter.version === undefined ? {} : { version: filter.version }),
      ...(filter.failingStep === undefined ? {} : { failingStep: filter.failingStep }),
      ...(after === undefined ? {} : { createdAfterMs: after }),
      ...(before === undefined ? {} : { createdBeforeMs: before }),
      ...(cursor === undefined ? {} : { after: cursor }),
      limit: MAX_RUN_PAGE,
    }, now);
    for (const r of page.runs) {
      // Newest first: once a run is older than the range, so is every one after it.
      if (after !== undefined && r.startedAtMs < after) return ids;
      if (before !== undefined && r.startedAtMs >= before) continue;
      if (filter.version !== undefined && r.version !== filter.version) continue;
      if (filter.failingStep !== undefined && r.failure?.step !== filter.failingStep) continue;
      ids.push(r.id);
      if (ids.length >= limit) return ids;
    }
    if (page.next === null) return ids;
    cursor = page.next;
  }
}

/** The runs of a request: those its filter selects, or those it names (each resolved, once). */
function selected(reader: RunReader, request: BulkRequest, now: number): string[] {
  if (request.filter !== undefined) return selectRuns(reader, request.filter, now);
  return [...new Set((request.runs ?? []).map((id) => reader.resolveRunId(id)))];
}

function rowOf(run: RunModel, request: BulkRequest): Pick<BulkRow, 'runId' | 'workflowId' | 'version' | 'action'> {
  return { runId: run.runId, workflowId: run.workflow.id, version: run.workflow.version, action: request.action };
}

/**
 * What the request would do to each run it selects, or why a run is refused; writes nothing.
 *
 * @example
 * const { rows, counts } = await bulkPreview(reader, { action: 'cancel', filter: { state: 'waiting' } }, Date.now());
 */
export async function bulkPreview(reader: RunReader, input: CommandInput<typeof BulkRequest>, now: number): Promise<BulkResult> {
  const request = parseCommand(BulkRequest, input, 'the bulk request');
  const rows: BulkRow[] = [];
  for (const runId of selected(reader, request, now)) {
    const run = reader.fold(runId);
    const verdict = await judgeRun(run, request, { store: reader.store });
    rows.push({ ...rowOf(run, request), status: verdict.ok ? 'would' : 'refused', ...(verdict.ok ? { what: verdict.plan.what } : { reason: verdict.reason }), state: run.state });
  }
  return { action: request.action, dryRun: true, rows, counts: bulkCounts(rows) };
}

/**
 * Acts on each selected run in turn: judged again as it is now, then the action performed through
 * the service (so the engine's own checks hold) and the run waited for until it settles. A run
 * refused, by the judge or by the engine, is a `refused` row and the next run goes on. `onRow`
 * hears each row as it is made (the CLI prints it).
 */
export async function bulkApply(service: EngineService, input: CommandInput<typeof BulkRequest>, onRow: (row: BulkRow, index: number, total: number) => void = () => undefined): Promise<BulkResult> {
  const request = parseCommand(BulkRequest, input, 'the bulk request');
  const ids = selected(service.reader, request, service.committedNow());
  const rows: BulkRow[] = [];
  for (const runId of ids) {
    service.committedNow();
    const run = service.reader.fold(runId);
    const verdict = await judgeRun(run, request, { store: service.reader.store });
    let row: BulkRow;
    if (!verdict.ok) row = { ...rowOf(run, request), status: 'refused', reason: verdict.reason, state: run.state };
    else {
      try {
        const applied = await verdict.plan.apply(service);
        row = { ...rowOf(run, request), status: 'done', what: applied.what ?? verdict.plan.what, state: applied.state, ...(applied.replay === undefined ? {} : { replay: applied.replay }) };
      } catch (error) {
        const refusal = serviceErrorOf(error);
        if (refusal === undefined) throw error;
        row = { ...rowOf(run, request), status: 'refused', reason: refusal.message, state: service.runState(runId) };
      }
    }
    rows.push(row);
    onRow(row, rows.length - 1, ids.length);
  }
  return { action: request.action, dryRun: false, rows, counts: bulkCounts(rows) };
}
