// The hover card: what the bar or marker under the pointer is, when it started and ended (as the
// clock read and as time since the run's start) and how long it took.
import { barEnd, type TimelineBar, type TimelineMarker, type TimelineModel, type TimelineRow } from './timeline-model.ts';
import { barHeadline, MARKER_LABEL } from './timeline-labels.ts';
import { formatDuration, timesInWords } from '../../core/format.ts';
import { formatCost } from '../../../shared/cost/run-cost.ts';

export interface Hovered {
  row: TimelineRow;
  bar: TimelineBar | null;
  marker: TimelineMarker | null;
  /** Pointer position inside the timeline's frame. */
  x: number;
  y: number;
  /** Near the right edge: the card opens to the pointer's left. */
  flip: boolean;
  /** Near the bottom: the card opens above the row. */
  above: boolean;
}

/** 14:03:07.250 */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function TimelineTooltip({ hovered, model, nowMs }: { hovered: Hovered; model: TimelineModel; nowMs: number }) {
  const { row, bar, marker } = hovered;
  const where = row.stepId === null ? 'run' : `${row.stepId}${row.activation === null ? '' : ` · activation ${row.activation}`}`;
  const since = (ms: number) => `+${formatDuration(ms - model.startMs)}`;
  return (
    <div className="tl-tooltip" role="tooltip" data-testid="timeline-tooltip" data-flip={hovered.flip || undefined} data-above={hovered.above || undefined} style={{ left: hovered.x + 12, top: hovered.y }}>
      <div className="tl-tooltip-title mono">{where}</div>
      {marker !== null ? (
        <>
          <div>
            <span className="tl-swatch tl-marker-swatch" data-kind={marker.kind} /> {MARKER_LABEL[marker.kind]}
          </div>
          <div className="muted">{timesInWords(marker.label, nowMs)}</div>
          <div className="tl-times">
            at <span data-testid="timeline-tooltip-start">{clockTime(marker.atMs)}</span> <span className="faint">({since(marker.atMs)})</span>
          </div>
        </>
      ) : bar !== null ? (
        <>
          <div>
            <span className="tl-swatch" data-kind={bar.kind} data-outcome={bar.outcome ?? 'none'} /> <span data-testid="timeline-tooltip-kind">{barHeadline(bar)}</span>
          </div>
          <div className="tl-times">
            start <span data-testid="timeline-tooltip-start">{clockTime(bar.startMs)}</span> <span className="faint">({since(bar.startMs)})</span>
          </div>
          <div className="tl-times">
            end <span data-testid="timeline-tooltip-end">{bar.endMs === null ? 'not yet' : clockTime(bar.endMs)}</span>
            {bar.endMs === null ? null : <span className="faint"> ({since(bar.endMs)})</span>}
          </div>
          <div className="tl-times">
            duration <span data-testid="timeline-tooltip-duration">{formatDuration(barEnd(bar, nowMs) - bar.startMs)}</span>
            {bar.endMs === null ? <span className="faint"> so far</span> : null}
          </div>
          {bar.cost !== null ? (
            <div className="tl-times">
              cost <span data-testid="timeline-tooltip-cost">{formatCost(bar.cost.amount, bar.cost.currency)}</span>
            </div>
          ) : null}
          {bar.why !== null ? <div className="muted">why: {timesInWords(bar.why, nowMs)}</div> : null}
        </>
      ) : null}
    </div>
  );
}
