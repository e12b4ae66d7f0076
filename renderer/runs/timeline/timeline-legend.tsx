// What each colour and pattern of the timeline means.
import { SPAN_KINDS } from '../../../shared/api/timeline.ts';
import { MARKER_KINDS, type AttemptOutcome } from './timeline-model.ts';
import { KIND_LABEL, MARKER_LABEL, OUTCOME_LABEL } from './timeline-labels.ts';

const OUTCOMES: readonly AttemptOutcome[] = ['succeeded', 'failed', 'unknown', 'open'];

export function TimelineLegend() {
  return (
    <ul className="tl-legend" data-testid="timeline-legend" aria-label="legend">
        {OUTCOMES.map((o) => (
          <li key={o}>
            <span className="tl-swatch" data-kind="running" data-outcome={o} /> attempt {OUTCOME_LABEL[o]}
          </li>
        ))}
        {SPAN_KINDS.filter((k) => k !== 'running').map((k) => (
          <li key={k}>
            <span className="tl-swatch" data-kind={k} data-outcome="none" /> {KIND_LABEL[k]}
          </li>
        ))}
        {MARKER_KINDS.map((k) => (
          <li key={k}>
            <span className="tl-swatch tl-marker-swatch" data-kind={k} /> {MARKER_LABEL[k]}
          </li>
        ))}
    </ul>
  );
}
