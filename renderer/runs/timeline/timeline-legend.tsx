// What each colour and pattern of the timeline means, and the toolbar's button that folds it
// away (remembered, timeline-prefs.ts) to give the rows its lines.
import { Info } from 'lucide-react';
import { SPAN_KINDS } from '../../../shared/api/timeline.ts';
import { MARKER_KINDS, type AttemptOutcome } from './timeline-model.ts';
import { KIND_LABEL, MARKER_LABEL, OUTCOME_LABEL } from './timeline-labels.ts';
import { useTimelinePrefs } from './timeline-prefs.ts';

const OUTCOMES: readonly AttemptOutcome[] = ['succeeded', 'failed', 'unknown', 'partial', 'open'];

export function TimelineLegend() {
  return (
    // Focusable: past two lines the legend scrolls, and the keyboard must reach its end too.
    <ul className="tl-legend" id="timeline-legend" data-testid="timeline-legend" aria-label="legend" tabIndex={0}>
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

export function LegendToggle() {
  const open = useTimelinePrefs((s) => s.legendOpen);
  return (
    <button
      type="button"
      className="button tl-legend-toggle"
      aria-expanded={open}
      aria-controls="timeline-legend"
      title={open ? 'Fold the legend away' : 'Show what each colour and mark means'}
      onClick={() => useTimelinePrefs.getState().toggleLegend()}
      data-testid="timeline-legend-toggle"
    >
      <Info size={13} aria-hidden="true" /> Legend
    </button>
  );
}
