// A step on the canvas: icon and shape by kind, name and id, effect badge, retry and deadline
// hints, validation problems as a badge; on a run's graph, the step's live state and attempt
// count, and, for a step no longer on the run's path (passed over, superseded), a chip beside the
// state saying so, the node drawn off the path. Memoized, and it subscribes only to its own step
// of its own run.
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { AlertTriangle, History, Hourglass, Layers, Radio, RotateCw, RouteOff, Timer, UserRound, XCircle, type LucideIcon } from 'lucide-react';
import { KindIcon } from './kind-icon.tsx';
import { nodeFamily } from '../kinds/kind-views.ts';
import type { StepFlowNode } from './to-flow.ts';
import { useRunMarks } from '../core/run-marks-store.ts';
import { formatDuration } from '../core/format.ts';
import { pathMark, type PathMarkKind } from './path-mark.ts';

const MARK_ICON: Record<PathMarkKind, LucideIcon> = { 'passed-over': RouteOff, superseded: History, 'ran-before': History };
const MARK_TEST_ID: Record<PathMarkKind, string> = { 'passed-over': 'step-passed-over', superseded: 'step-superseded', 'ran-before': 'step-ran-before' };

function StepNodeView({ data, selected }: NodeProps<StepFlowNode>) {
  const step = useRunMarks((s) => (data.runId === null ? undefined : s.steps[data.runId]?.[data.stepId]));
  const state = step?.state;
  const attempts = step === undefined ? 0 : (step.attemptCount ?? step.attempts.length);
  const problemTitle = data.problems.join('\n');
  const mark = step === undefined ? null : pathMark(step);
  const MarkIcon = mark === null ? null : MARK_ICON[mark.kind];
  return (
    <div
      className="step-node"
      data-kind={data.kind}
      data-family={nodeFamily(data.kind)}
      data-run-state={state ?? (data.runId === null ? undefined : 'blocked')}
      data-selected={selected ? 'true' : undefined}
      data-path={mark?.kind}
      data-diff={data.diff}
      data-breakpoint={data.breakpoint}
      data-pinned={data.pinned}
      data-testid={`step-node-${data.stepId}`}
      title={`${data.name} (${data.stepId}) — ${data.kind}${state ? `, ${state.replace('_', ' ')}` : ''}${mark === null ? '' : `\n${mark.title}`}`}
    >
      <Handle type="target" position={Position.Left} className="step-handle" />
      {state !== undefined ? (
        // On the node's top border, so they take no room from its text.
        <div className="node-marks">
          {mark !== null && MarkIcon !== null ? (
            <span className="node-path-chip" data-path={mark.kind} title={mark.title} data-testid={`${MARK_TEST_ID[mark.kind]}-${data.stepId}`}>
              <MarkIcon size={11} aria-hidden="true" />
              {mark.label}
            </span>
          ) : null}
          <span className="state node-state" data-state={state} data-testid={`step-state-${data.stepId}`}>
            {state.replace('_', ' ')}
            {attempts > 1 ? <span className="attempts"> ×{attempts}</span> : null}
          </span>
        </div>
      ) : null}
      <div className="step-node-icon" aria-hidden="true">
        <KindIcon kind={data.kind} size={16} />
      </div>
      <div className="step-node-body">
        <div className="step-node-title">
          <span className="step-node-name">{data.name}</span>
          {data.errors > 0 ? (
            <span className="node-problem node-problem-error" title={problemTitle} aria-label={`${data.errors} errors`}>
              <XCircle size={12} aria-hidden="true" />
              {data.errors}
            </span>
          ) : data.warnings > 0 ? (
            <span className="node-problem node-problem-warning" title={problemTitle} aria-label={`${data.warnings} warnings`}>
              <AlertTriangle size={12} aria-hidden="true" />
              {data.warnings}
            </span>
          ) : null}
        </div>
        <div className="step-node-sub">
          <span className="mono">{data.stepId}</span>
          <span className="dot-sep">·</span>
          <span>{data.kind}</span>
          {data.optional ? <span className="node-chip">optional</span> : null}
          {step?.escalated === true ? (
            <span className="node-flag" title="waits for a person: an escalation, or an unknown outcome to resolve" data-testid={`step-escalated-${data.stepId}`}>
              <UserRound size={11} aria-hidden="true" /> needs a person
            </span>
          ) : state === 'waiting' && (data.kind === 'human' || data.kind === 'event') ? (
            <span className="node-flag node-flag-wait" title={data.kind === 'human' ? 'waiting for a person' : 'waiting for an event'}>
              {data.kind === 'human' ? <UserRound size={11} aria-hidden="true" /> : <Radio size={11} aria-hidden="true" />}
            </span>
          ) : null}
        </div>
        {data.stats !== undefined ? (
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
        ) : (
        <div className="step-node-hints">
          {data.items !== undefined ? (
            <span
              className="node-items-failed"
              title={`${data.items.failed} of ${data.items.total} items did not succeed; the step's detail links their runs`}
              data-testid={`step-items-failed-${data.stepId}`}
            >
              <Layers size={11} aria-hidden="true" /> {data.items.failed}/{data.items.total} failed
            </span>
          ) : null}
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
        </div>
        )}
      </div>
      <Handle type="source" position={Position.Right} className="step-handle" />
    </div>
  );
}

export const StepNode = memo(StepNodeView);
