// Time travel: a scrubber over the run's event sequence. Away from the end, the run is folded in
// the browser by shared/run (the same fold the engine runs) up to the chosen event, and the page
// shows that RunDetail instead of the live one: graph, step detail and restart record as they
// were. Stepping goes by event, or by step settle. The log is the run's one events query
// (core/run-queries.ts), the one the timeline reads: it is paged once for both.
import { useCallback, useEffect, useState } from 'react';
import { History, SkipBack, SkipForward, StepBack, StepForward } from 'lucide-react';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { RunEventRecord } from '../../../shared/api/run-event-record.ts';
import { foldEvents, startDefinition } from '../../../shared/run/fold-events.ts';
import { runDetail } from '../../../shared/run/run-detail.ts';
import type { TimelineReads } from '../../api/timeline-client.ts';
import { useRunEvents } from '../../core/run-queries.ts';
import { When } from '../../core/when.tsx';

interface Props {
  runId: string;
  definition: Workflow;
  lastSeq: number;
  client: TimelineReads;
  /** The run as of the chosen event, or null for the live run. */
  onView(view: { detail: RunDetail; seq: number } | null): void;
}

/** The seqs of step_settled events, where "by step settle" stops. */
export function settleSeqs(events: readonly RunEventRecord[]): number[] {
  return events.filter((e) => e.type === 'step_settled').map((e) => e.seq);
}

export function TimeTravel({ runId, definition, lastSeq, client, onView }: Props) {
  const [seq, setSeq] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The log up to lastSeq, paged once (with the timeline) and extended as the run goes on.
  const log = useRunEvents(runId, client, lastSeq);
  const events = log.events;
  const logError = log.error;
  const load = useCallback(async (): Promise<readonly RunEventRecord[]> => {
    if (logError !== null) throw new Error(logError);
    return events;
  }, [events, logError]);

  const goTo = useCallback(
    async (target: number | null) => {
      setError(null);
      if (target === null || target >= lastSeq) {
        setSeq(null);
        onView(null);
        return;
      }
      try {
        const all = await load();
        if (all.length === 0) throw new Error('the run’s log is still being read: try again in a moment');
        const n = Math.max(1, Math.min(target, all.length));
        setSeq(n);
        // A migrated run's log starts on the version its first migration left.
        onView({ detail: runDetail(foldEvents(startDefinition(definition, all), all.slice(0, n))), seq: n });
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    },
    [definition, lastSeq, load, onView],
  );

  // Leaving the page, or a new run: back to live.
  useEffect(() => () => onView(null), [onView]);

  const at = seq ?? lastSeq;
  const settles = settleSeqs(events);
  const byEvent = (delta: number) => void goTo(at + delta);
  const bySettle = async (direction: 1 | -1) => {
    const all = await load();
    const stops = settleSeqs(all);
    const next = direction > 0 ? stops.find((s) => s > at) : [...stops].reverse().find((s) => s < at);
    await goTo(next ?? (direction > 0 ? null : 1));
  };
  const event = seq === null ? undefined : events[seq - 1];
  return (
    <div className="time-travel" data-testid="time-travel" data-seq={at} data-live={seq === null ? 'true' : 'false'}>
      <History size={14} aria-hidden="true" className="faint" />
      <button type="button" className="icon-button" onClick={() => void bySettle(-1)} aria-label="back to the previous step settle" title="previous step settle" data-testid="tt-prev-settle">
        <SkipBack size={14} aria-hidden="true" />
      </button>
      <button type="button" className="icon-button" onClick={() => byEvent(-1)} disabled={at <= 1} aria-label="previous event" title="previous event" data-testid="tt-prev-event">
        <StepBack size={14} aria-hidden="true" />
      </button>
      <input
        type="range"
        min={1}
        max={lastSeq}
        value={at}
        onChange={(e) => void goTo(Number(e.target.value))}
        aria-label="event of the run to show"
        aria-valuetext={`event ${at} of ${lastSeq}`}
        data-testid="tt-slider"
      />
      <button type="button" className="icon-button" onClick={() => byEvent(1)} disabled={seq === null} aria-label="next event" title="next event" data-testid="tt-next-event">
        <StepForward size={14} aria-hidden="true" />
      </button>
      <button type="button" className="icon-button" onClick={() => void bySettle(1)} disabled={seq === null} aria-label="on to the next step settle" title="next step settle" data-testid="tt-next-settle">
        <SkipForward size={14} aria-hidden="true" />
      </button>
      <span className="tt-where" data-testid="tt-where">
        {seq === null ? (
          <>live · event {lastSeq}</>
        ) : (
          <>
            as of event {seq} of {lastSeq}
            {event !== undefined ? (
              <span className="faint">
                {' '}
                · {event.type.replace(/_/g, ' ')}
                {event.step !== null ? ` ${event.step}` : ''} · <When at={event.at} />
              </span>
            ) : null}
            {settles.length > 0 ? null : null}
          </>
        )}
      </span>
      {seq !== null ? (
        <button type="button" className="button" onClick={() => void goTo(null)} data-testid="tt-live">
          Back to live
        </button>
      ) : null}
      {error !== null ? (
        <span className="form-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
