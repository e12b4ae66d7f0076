// The verdict of a replay (docs/evolution.md "Replay"), from the end states of the source and the
// replay and their comparison (weft compare's): `incomplete` when it stopped for a recording;
// `same` for the same end state and no difference; `fixed` when the source did not succeed (it
// failed, needs attention, or waits on a person or an operator) and the replay succeeded;
// `regressed` when the source succeeded and the replay did not; else `changed`: both succeeded
// with a difference, or neither did and they differ ("still failing, differently").
import type { RunState } from '../../shared/definition/names.ts';
import type { ReplayVerdict } from '../../shared/api/replay-result.ts';
import type { RunComparison } from '../../shared/api/run-comparison.ts';

/** The verdict of a replay whose run ended in `replay` against a source that ended in `source`. */
export function replayVerdict(source: RunState, replay: RunState, comparison: RunComparison, stopped: boolean): ReplayVerdict {
  if (stopped) return 'incomplete';
  if (source === replay && comparison.firstDifference === null) return 'same';
  const sourceOk = source === 'succeeded';
  const replayOk = replay === 'succeeded';
  if (!sourceOk && replayOk) return 'fixed';
  if (sourceOk && !replayOk) return 'regressed';
  return 'changed';
}
