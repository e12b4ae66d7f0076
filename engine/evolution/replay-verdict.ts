// The verdict of a replay (docs/evolution.md "Replay"), from the end states of the source and the
// replay and their comparison (weft compare's): `incomplete` when it stopped for a recording;
// `same` for the same end state and no difference; `fixed` when the source did not succeed (it
// failed, needs attention, or waits on a person or an operator) and the replay succeeded;
// `regressed` when the source succeeded and the replay did not; else `changed`: both succeeded
// with a difference, or neither did and they differ ("still failing, differently").
//
// The times the engine itself writes into an output (a wait's `firedAt`, a person's decision's
// `at`) are read off the virtual clock in a replay, which does not repeat the real engine's
// milliseconds between steps: a difference in those fields alone is not a difference of the
// verdict (the comparison still shows it).
import type { StepKind } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunState } from '../../shared/definition/names.ts';
import type { ReplayVerdict } from '../../shared/api/replay-result.ts';
import type { RunComparison } from '../../shared/api/run-comparison.ts';

/** Output fields of a kind that hold the clock's time when the engine settled the step. */
const CLOCK_FIELDS: Partial<Record<StepKind, readonly string[]>> = { wait: ['$.firedAt'], human: ['$.at'] };

/** Whether the runs differ anywhere but in the clock fields of `workflow`'s wait and human steps. */
export function differsBeyondClock(comparison: RunComparison, workflow: Workflow): boolean {
  const kinds = new Map(workflow.steps.map((s) => [s.id, s.kind]));
  return comparison.steps.some((s) => {
    if (s.differs.length === 0) return false;
    const clock = CLOCK_FIELDS[kinds.get(s.id) ?? 'transform'];
    if (clock === undefined || s.differs.some((k) => k !== 'output')) return true;
    return s.fields.output.some((f) => !clock.includes(f.path)) || s.fields.outputTotal > s.fields.output.length;
  });
}

/** The verdict of a replay whose run ended in `replay` against a source that ended in `source`; `differs` from differsBeyondClock. */
export function replayVerdict(source: RunState, replay: RunState, differs: boolean, stopped: boolean): ReplayVerdict {
  if (stopped) return 'incomplete';
  if (source === replay && !differs) return 'same';
  const sourceOk = source === 'succeeded';
  const replayOk = replay === 'succeeded';
  if (!sourceOk && replayOk) return 'fixed';
  if (sourceOk && !replayOk) return 'regressed';
  return 'changed';
}
