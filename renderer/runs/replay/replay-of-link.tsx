// The head of a replay's run page: what it replays and on which definition, the way back to the
// replayed run, and the two side by side. A replay takes no actions, so this stands where a run's
// action buttons are.
import { CornerLeftUp, GitCompare } from 'lucide-react';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { versionLabel } from '../../../shared/run/version-label.ts';
import { useRoute } from '../../core/route-store.ts';

/** A replay's head: what it replays and on what, with the way back to the run and the two side by side. */
export function ReplayOfLink({ replayOf, runId }: { replayOf: NonNullable<RunDetail['run']['replayOf']>; runId: string }) {
  const go = useRoute((s) => s.go);
  const v = replayOf.against.version;
  const on = v !== undefined && versionLabel(v) !== 'draft' ? versionLabel(v) : (replayOf.against.file ?? 'a draft');
  return (
    <>
      <span className="debug-badge" data-testid="run-replay-of" title="A replay runs in virtual time from the recorded calls of the run it replays; it takes no actions">
        replay of {replayOf.runId} on {on}
      </span>
      <button type="button" className="button" onClick={() => go({ page: 'run', id: replayOf.runId })}>
        <CornerLeftUp size={13} aria-hidden="true" /> The replayed run
      </button>
      <button type="button" className="button" onClick={() => go({ page: 'compare', a: replayOf.runId, b: runId })} data-testid="replay-compare-source">
        <GitCompare size={14} aria-hidden="true" /> Side by side
      </button>
    </>
  );
}
