// One row of the timeline: the step activation's label and, in its track, only the bars and
// markers that intersect the visible window. Memoised: a row re-renders only when its data, the
// window, the width or its selection changes.
import { memo } from 'react';
import { barEnd, barsInWindow, xOf, type TimelineMarker, type TimelineRow, type TimeWindow } from './timeline-model.ts';
import { KIND_LABEL, OUTCOME_LABEL } from './timeline-labels.ts';
import { formatCost } from '../../../shared/cost/run-cost.ts';

export const ROW_HEIGHT = 24;
/** A bar is at least this wide, so a 1 ms attempt of a long run can still be seen and hit. */
const MIN_BAR_PX = 2;
/** A bar this wide or wider shows its attempt's cost inside it. */
const COST_LABEL_PX = 64;

export interface RowProps {
  row: TimelineRow;
  index: number;
  top: number;
  window: TimeWindow;
  widthPx: number;
  nowMs: number;
  markers: readonly TimelineMarker[] | undefined;
  selected: boolean;
  /** The selected attempt in this row (outlined), or null. */
  selectedAttempt: number | null;
  focused: boolean;
  /** The bar the keyboard is on, by index in the row's bars, or -1. */
  focusedBar: number;
}

export const rowDomId = (index: number): string => `timeline-row-${index}`;

export const TimelineRowView = memo(function TimelineRowView(p: RowProps) {
  const { row, window: w, widthPx, nowMs } = p;
  const label = row.stepId === null ? 'run' : row.stepId;
  const visible = barsInWindow(row, w, nowMs);
  const attempts = row.bars.filter((b) => b.attempt !== null && b.kind !== 'retry_wait').length;
  return (
    <div
      id={rowDomId(p.index)}
      className="tl-row"
      role="option"
      aria-selected={p.selected}
      aria-label={`${label}${row.activation === null ? '' : ` activation ${row.activation}`}: ${attempts} attempt${attempts === 1 ? '' : 's'}`}
      data-testid="timeline-row"
      data-step={row.stepId ?? ''}
      data-activation={row.activation ?? ''}
      data-selected={p.selected || undefined}
      data-focused={p.focused || undefined}
      data-index={p.index}
      style={{ transform: `translateY(${p.top}px)` }}
    >
      <div className="tl-label" title={label}>
        <span className="tl-label-step">{label}</span>
        {row.activation !== null && row.activation > 1 ? <span className="tl-label-act">#{row.activation}</span> : null}
        {row.cost !== null ? (
          <span className="tl-label-cost" data-testid="timeline-row-cost" title="what this activation's attempts cost">
            {formatCost(row.cost.amount, row.cost.currency)}
          </span>
        ) : null}
      </div>
      <div className="tl-track">
        {visible.map((bar) => {
          const left = Math.max(xOf(bar.startMs, w, widthPx), -2);
          const right = Math.min(xOf(barEnd(bar, nowMs), w, widthPx), widthPx + 2);
          const i = row.bars.indexOf(bar);
          const outlined = p.selected && p.selectedAttempt !== null && bar.attempt === p.selectedAttempt && bar.kind !== 'retry_wait';
          const width = Math.max(right - left, MIN_BAR_PX);
          const cost = bar.cost === null ? null : formatCost(bar.cost.amount, bar.cost.currency);
          return (
            <div
              key={i}
              className="tl-bar"
              data-testid="timeline-bar"
              data-kind={bar.kind}
              data-outcome={bar.outcome ?? 'none'}
              data-attempt={bar.attempt ?? ''}
              data-open={bar.endMs === null || undefined}
              data-selected={outlined || undefined}
              data-focused={(p.focused && i === p.focusedBar) || undefined}
              data-cost={bar.cost?.amount}
              aria-label={`${KIND_LABEL[bar.kind]}${bar.attempt === null ? '' : ` attempt ${bar.attempt}`}${bar.outcome === 'partial' ? `, ${OUTCOME_LABEL.partial}` : ''}${cost === null ? '' : `, cost ${cost}`}`}
              style={{ left, width }}
            >
              {cost !== null && width >= COST_LABEL_PX ? <span className="tl-bar-cost">{cost}</span> : null}
            </div>
          );
        })}
        {(p.markers ?? []).map((m) =>
          m.atMs < w.startMs || m.atMs > w.endMs ? null : (
            <div key={m.seq} className="tl-marker" data-testid="timeline-marker" data-kind={m.kind} aria-label={m.label} style={{ left: xOf(m.atMs, w, widthPx) }} />
          ),
        )}
      </div>
    </div>
  );
});
