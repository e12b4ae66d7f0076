// The lines under a step node's title: the id and kind line (with the optional chip and the
// "needs a person" flag), and the hints line (a map's failed items, effect, retries, timers) or,
// on the insights page, the step's figures. The compact node (semantic-zoom.ts) keeps only the
// failed items and the figures: they are what its page is about.
import { Hourglass, Layers, Radio, RotateCw, Timer, UserRound } from 'lucide-react';
import type { StepNodeData } from './to-flow.ts';
import { formatDuration } from '../core/format.ts';

interface SubProps {
  data: StepNodeData;
  state: string | undefined;
  escalated: boolean;
}

export function StepNodeSub({ data, state, escalated }: SubProps) {
  return (
    <div className="step-node-sub">
      <span className="mono">{data.stepId}</span>
      <span className="dot-sep">·</span>
      <span>{data.kind}</span>
      {data.optional ? <span className="node-chip">optional</span> : null}
      {escalated ? (
        <span className="node-flag" title="waits for a person: an escalation, or an unknown outcome to resolve" data-testid={`step-escalated-${data.stepId}`}>
          <UserRound size={11} aria-hidden="true" /> needs a person
        </span>
      ) : state === 'waiting' && (data.kind === 'human' || data.kind === 'event') ? (
        <span className="node-flag node-flag-wait" title={data.kind === 'human' ? 'waiting for a person' : 'waiting for an event'}>
          {data.kind === 'human' ? <UserRound size={11} aria-hidden="true" /> : <Radio size={11} aria-hidden="true" />}
        </span>
      ) : null}
    </div>
  );
}

/** The hints line; with `full` false, only what the compact node keeps (null when nothing). */
export function StepNodeHints({ data, full }: { data: StepNodeData; full: boolean }) {
  if (data.stats !== undefined) {
    return (
      <div className="step-node-hints step-node-stats" data-testid={`step-stats-${data.stepId}`} title={`activation to settlement; ran in ${data.stats.runs} of ${data.stats.of} runs`}>
        <span className="stat">
          p50 <b>{data.stats.p50 === null ? '–' : formatDuration(data.stats.p50)}</b>
        </span>
        <span className="stat">
          p95 <b>{data.stats.p95 === null ? '–' : formatDuration(data.stats.p95)}</b>
        </span>
        <span className="stat faint">
          {data.stats.runs}/{data.stats.of}
        </span>
      </div>
    );
  }
  if (!full && data.items === undefined) return null;
  return (
    <div className="step-node-hints">
      {data.items !== undefined ? (
        <span className="node-items-failed" title={`${data.items.failed} of ${data.items.total} items did not succeed; the step's detail links their runs`} data-testid={`step-items-failed-${data.stepId}`}>
          <Layers size={11} aria-hidden="true" /> {data.items.failed}/{data.items.total} failed
        </span>
      ) : null}
      {full ? <Hints data={data} /> : null}
    </div>
  );
}

function Hints({ data }: { data: StepNodeData }) {
  return (
    <>
      {data.effect !== 'none' ? (
        <span className="effect-badge" data-effect={data.effect} title={`effect: ${data.effect}`}>
          {data.effect}
        </span>
      ) : null}
      {data.retries > 0 ? (
        <span className="hint" title={`retried up to ${data.retries} times`}>
          <RotateCw size={11} aria-hidden="true" />
          {data.retries}
        </span>
      ) : null}
      {data.timeoutMs !== null ? (
        <span className="hint" title={`each attempt times out after ${formatDuration(data.timeoutMs)}`}>
          <Timer size={11} aria-hidden="true" />
          {formatDuration(data.timeoutMs)}
        </span>
      ) : null}
      {data.deadlineMs !== null ? (
        <span className="hint" title={`deadline ${formatDuration(data.deadlineMs)}`}>
          <Hourglass size={11} aria-hidden="true" />
          {formatDuration(data.deadlineMs)}
        </span>
      ) : null}
    </>
  );
}
