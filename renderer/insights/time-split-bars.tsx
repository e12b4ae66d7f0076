// Each recent run's time as one bar split into active, waiting, queued and attention, as shares
// of its own duration (a 4 s run and a 2-day run are both read for where their time went; the
// duration is printed beside the bar). Plain HTML rather than a chart: every row is a button
// that opens the run, reachable by keyboard, with its figures in its title.
import { formatDuration, formatWhen } from '../core/format.ts';
import { SPLIT_PARTS, type SplitRow } from './time-split.ts';
import { useWhenClock } from '../core/when.tsx';

export function TimeSplitBars({ rows, total, onOpenRun }: { rows: readonly SplitRow[]; total: number; onOpenRun: (runId: string) => void }) {
  const now = useWhenClock();
  return (
    <figure className="insights-chart" aria-label="time split of recent runs">
      <figcaption className="insights-caption">
        Where each run’s time went · newest {rows.length} of {total}
        <span className="split-legend">
          {SPLIT_PARTS.map((p) => (
            <span key={p} className="split-key" data-part={p}>
              {p}
            </span>
          ))}
        </span>
      </figcaption>
      <ol className="split-rows">
        {rows.map((r) => (
          <li key={r.runId}>
            <button
              type="button"
              className="split-row"
              data-testid={`split-run-${r.runId}`}
              onClick={() => onOpenRun(r.runId)}
              title={`${r.runId}, ${r.state.replace('_', ' ')}, started ${formatWhen(r.startedAt, now).text}: ${SPLIT_PARTS.map((p) => `${p} ${formatDuration(r.ms[p])}`).join(', ')}`}
            >
              <span className="split-id mono">{r.runId}</span>
              <span className="state" data-state={r.state}>
                {r.state.replace('_', ' ')}
              </span>
              <span className="split-bar" aria-hidden="true">
                {SPLIT_PARTS.map((p) =>
                  r.share[p] > 0 ? <span key={p} className="split-seg" data-part={p} style={{ flexGrow: r.share[p] }} /> : null,
                )}
              </span>
              <span className="split-duration" data-testid={`split-duration-${r.runId}`}>
                {formatDuration(r.durationMs)}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </figure>
  );
}
