// Many runs replayed at once (weft replay --runs FILTER, POST /api/replays; docs/evolution.md):
// the runs of a workflow chosen like `weft runs` lists them (newest first, by state, and by the
// step they failed at), each replayed on the same definition, one row per run and the counts.
// The summary splits the runs that did not succeed in either: still failing at the same step, or
// still failing differently.
import type { ReplayBatchResult, ReplayFilter, ReplayResult, ReplayRow, ReplayVerdict } from '../../shared/api/replay-result.ts';
import type { RunComparison } from '../../shared/api/run-comparison.ts';
import { runMetrics } from '../metrics/run-metrics.ts';
import type { Store } from '../store/store.ts';
import { replayRun, type ReplayAgainst, type ReplayOptions } from './replay-run.ts';
import { definitionHash } from '../store/definition-content.ts';

/** The step a failed run (or one that needs attention) failed at, as the runs list names it (run-metrics.ts); null for none. */
export function failingStepOf(store: Store, runId: string, now: number): string | null {
  return runMetrics(store.readRunLog(runId), now).failure?.step ?? null;
}

/** The runs a filter selects, newest first: real runs only. */
export function selectRuns(store: Store, filter: ReplayFilter, now: number): string[] {
  const limit = filter.limit ?? 50;
  const out: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = store.runPage({ workflow: filter.workflow, ...(filter.state === undefined ? {} : { state: filter.state }), ...(after === undefined ? {} : { after }), limit: 500 });
    for (const row of page.rows) {
      if (filter.failingStep !== undefined && failingStepOf(store, row.id, now) !== filter.failingStep) continue;
      out.push(row.id);
      if (out.length >= limit) return out;
    }
    if (page.next === null) return out;
    after = page.next;
  }
}

/**
 * Replays every run `filter` selects on `against`, one after another; a run that cannot be
 * replayed is an error of the whole batch (none is left half-stored: each replay is one
 * transaction).
 */
export async function replayRuns(store: Store, filter: ReplayFilter, against: ReplayAgainst, o: ReplayOptions): Promise<ReplayBatchResult> {
  const rows: ReplayRow[] = [];
  for (const id of selectRuns(store, filter, o.clock.now())) rows.push(rowOf(await replayRun(store, id, against, o), store, o.clock.now()));
  const counts: Record<ReplayVerdict, number> = { same: 0, fixed: 0, changed: 0, regressed: 0, incomplete: 0 };
  for (const r of rows) counts[r.verdict]++;
  return {
    against: {
      workflowId: against.workflow.id,
      ...(against.version === undefined ? {} : { version: against.version }),
      ...(against.file === undefined ? {} : { file: against.file }),
      definitionHash: definitionHash(against.workflow),
    },
    rows,
    counts,
    summary: summaryLine(rows),
  };
}

function rowOf(r: ReplayResult, store: Store, now: number): ReplayRow {
  const failingStep = failingStepOf(store, r.sourceRunId, now);
  return {
    sourceRunId: r.sourceRunId,
    replayRunId: r.replayRunId,
    sourceState: r.sourceState,
    replayState: r.replayState,
    verdict: r.verdict,
    group: groupOf(r.verdict, r.sourceState, r.replayState, failingStep, failingStepOf(store, r.replayRunId, now)),
    failingStep,
    note: noteOf(r, r.comparison),
  };
}

/** The summary's group of a row: its verdict, with runs that did not succeed in either split by whether they fail at the same step. */
function groupOf(verdict: ReplayVerdict, source: string, replay: string, failedAt: string | null, replayFailedAt: string | null): string {
  if ((verdict === 'same' || verdict === 'changed') && source !== 'succeeded' && replay !== 'succeeded') {
    return failedAt === replayFailedAt ? 'still failing at the same step' : 'still failing differently';
  }
  return verdict;
}

function noteOf(r: ReplayResult, c: RunComparison): string | null {
  if (r.needsRecording !== undefined) return `needs a recording: ${r.needsRecording.why}`;
  return c.firstDifference === null ? null : `${c.firstDifference.stepId}: ${c.firstDifference.why}`;
}

const GROUP_ORDER = ['fixed', 'still failing at the same step', 'still failing differently', 'changed', 'regressed', 'incomplete', 'same'];

/** "31 fixed, 12 still failing at the same step, 5 changed, 2 incomplete": each group with runs, in a fixed order. */
export function summaryLine(rows: readonly ReplayRow[]): string {
  if (rows.length === 0) return 'no runs matched';
  const n = new Map<string, number>();
  for (const r of rows) n.set(r.group, (n.get(r.group) ?? 0) + 1);
  return GROUP_ORDER.filter((g) => (n.get(g) ?? 0) > 0).map((g) => `${n.get(g) ?? 0} ${g}`).join(', ');
}
