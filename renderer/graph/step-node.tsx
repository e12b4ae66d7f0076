// A step on the canvas: icon and shape by kind, name and id, effect badge, retry and deadline
// hints, validation problems as a badge, in the editor the number of lessons that concern it; on a run's graph, the step's live state and attempt
// count, and, for a step no longer on the run's path (passed over, superseded), a chip beside the
// state saying so, the node drawn off the path. Memoized, and it subscribes only to its own step
// of its own run. What it draws depends on the zoom (semantic-zoom.ts): everything, the title
// alone (counter-scaled to stay readable), or the box alone; the box's size never changes.
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { AlertTriangle, BookOpen, History, RouteOff, XCircle, type LucideIcon } from 'lucide-react';
import { KindIcon } from './kind-icon.tsx';
import { nodeFamily } from '../kinds/kind-views.ts';
import type { StepFlowNode } from './to-flow.ts';
import { useRunMarks } from '../core/run-marks-store.ts';
import { useEditorLessons } from '../core/workflow-lessons.ts';
import { pathMark, type PathMarkKind } from './path-mark.ts';
import { useZoomLevel } from './semantic-zoom-style.tsx';
import { StepNodeHints, StepNodeSub } from './step-node-details.tsx';

const MARK_ICON: Record<PathMarkKind, LucideIcon> = { 'passed-over': RouteOff, superseded: History, 'ran-before': History };
const MARK_TEST_ID: Record<PathMarkKind, string> = { 'passed-over': 'step-passed-over', superseded: 'step-superseded', 'ran-before': 'step-ran-before' };

function StepNodeView({ data, selected }: NodeProps<StepFlowNode>) {
  const step = useRunMarks((s) => (data.runId === null ? undefined : s.steps[data.runId]?.[data.stepId]));
  // In the editor (no run): how many of the workflow's lessons concern this step.
  const lessons = useEditorLessons((s) => (data.runId === null ? (s.byStep[data.stepId]?.length ?? 0) : 0));
  const state = step?.state;
  const attempts = step === undefined ? 0 : (step.attemptCount ?? step.attempts.length);
  const problemTitle = data.problems.join('\n');
  const mark = step === undefined ? null : pathMark(step);
  const MarkIcon = mark === null ? null : MARK_ICON[mark.kind];
  const level = useZoomLevel();
  const full = level === 'full';
  return (
    <div
      className="step-node"
      data-zoom={level}
      data-problem={data.errors > 0 ? 'error' : data.warnings > 0 ? 'warning' : undefined}
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
      {state !== undefined && level !== 'far' ? (
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
      {full ? (
        <div className="step-node-icon" aria-hidden="true">
          <KindIcon kind={data.kind} size={16} />
        </div>
      ) : null}
      {level === 'far' ? null : (
        <div className="step-node-body">
          <div className="step-node-title">
            <span className="step-node-name">{data.name}</span>
            {lessons > 0 ? (
              <span className="node-lessons" title={`${lessons} lesson${lessons === 1 ? '' : 's'} concern${lessons === 1 ? 's' : ''} this step (see the inspector)`} aria-label={`${lessons} lessons`} data-testid={`step-lessons-${data.stepId}`}>
                <BookOpen size={12} aria-hidden="true" />
                {lessons}
              </span>
            ) : null}
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
          {full ? <StepNodeSub data={data} state={state} escalated={step?.escalated === true} /> : null}
          <StepNodeHints data={data} full={full} />
        </div>
      )}
      <Handle type="source" position={Position.Right} className="step-handle" />
    </div>
  );
}

export const StepNode = memo(StepNodeView);
