// A replay's answer as the app shows it: the verdict with what it means, the step that stopped it
// for want of a recording, links to the replay run and to the two runs side by side, and the
// comparison itself (the compare page's view, so it reads as `weft compare` does).
import { ExternalLink, GitCompareArrows } from 'lucide-react';
import type { ReplayResult } from '../../../shared/api/replay-result.ts';
import { versionLabel } from '../../../shared/run/version-label.ts';
import { useRoute } from '../../core/route-store.ts';
import { CompareView } from '../compare/compare-view.tsx';
import { VERDICT_LABEL, verdictSentence } from './replay-words.ts';
import './replay.css';

/** The badge of a verdict, as the tables and the dialog show it. */
export function VerdictBadge({ verdict }: { verdict: ReplayResult['verdict'] }) {
  return (
    <span className="replay-verdict" data-verdict={verdict} data-testid="replay-verdict">
      {VERDICT_LABEL[verdict]}
    </span>
  );
}

export function ReplayResultView({ result, onLeave }: { result: ReplayResult; onLeave?(): void }) {
  const go = useRoute((s) => s.go);
  const open = (route: Parameters<typeof go>[0]) => () => {
    onLeave?.();
    go(route);
  };
  const v = result.against.version;
  const against = v !== undefined && versionLabel(v) !== 'draft' ? versionLabel(v) : result.against.file === undefined || result.against.file === '(draft)' ? 'the draft' : `the file ${result.against.file}`;
  return (
    <div className="replay-result" data-testid="replay-result" data-verdict={result.verdict}>
      <div className="replay-summary" role="status" data-testid="replay-summary">
        <VerdictBadge verdict={result.verdict} />
        <div>
          <div className="replay-summary-title">
            Replayed <span className="mono">{result.sourceRunId}</span> on {result.against.workflowId} {against}
          </div>
          <p className="muted" data-testid="replay-sentence">
            {verdictSentence(result)}
          </p>
          {result.needsRecording?.path !== undefined ? (
            <p className="faint mono" data-testid="replay-needs-path">
              input differs at {result.needsRecording.path}
            </p>
          ) : null}
        </div>
      </div>
      <div className="replay-links">
        <button type="button" className="link-button" onClick={open({ page: 'compare', a: result.sourceRunId, b: result.replayRunId })} data-testid="replay-open-compare">
          <GitCompareArrows size={13} aria-hidden="true" /> Open side by side
        </button>
        <button type="button" className="link-button" onClick={open({ page: 'run', id: result.replayRunId })} data-testid="replay-open-run">
          <ExternalLink size={13} aria-hidden="true" /> Open the replay run <span className="mono">{result.replayRunId}</span>
        </button>
      </div>
      <CompareView comparison={result.comparison} />
    </div>
  );
}
