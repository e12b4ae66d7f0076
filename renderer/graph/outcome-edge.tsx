// An edge on the canvas, labelled with the outcome(s) it follows and its condition. Failure
// outcomes are drawn dashed in their colour; loop edges show their bound. Zoomed far out, the
// edge is its path alone.
import { memo } from 'react';
import { Handshake } from 'lucide-react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, Position, type EdgeProps } from '@xyflow/react';
import { bezierPoint } from './edge-label-layout.ts';
import type { OutcomeFlowEdge } from './to-flow.ts';
import { useRunMarks } from '../core/run-marks-store.ts';
import { useZoomLevel } from './semantic-zoom-style.tsx';

function OutcomeEdgeView(props: EdgeProps<OutcomeFlowEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, markerEnd, selected } = props;
  const [path, midX, midY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  // The graph placed the label clear of nodes (edge-label-layout.ts), on this same curve.
  const at = data?.labelAt;
  const onCurve = at !== undefined && sourcePosition === Position.Right && targetPosition === Position.Left ? bezierPoint(sourceX, sourceY, targetX, targetY, at.t) : null;
  const label = onCurve === null || at === undefined ? { x: midX, y: midY } : { x: onCurve.x, y: onCurve.y + at.dy };
  const runId = data?.runId ?? null;
  // On a run's graph: was this edge taken in the run's current pass (undefined: not decided yet).
  const taken = useRunMarks((st) => (runId === null ? undefined : st.edgeTaken[runId]?.[id]));
  const why = useRunMarks((st) => (runId === null ? undefined : st.edgeWhy[runId]?.[id]));
  const outcomes = data?.outcomes ?? ['succeeded'];
  const main = outcomes[0] ?? 'succeeded';
  const problems = data?.problems ?? 0;
  const handoff = data?.handoff === true;
  const plain = outcomes.length === 1 && main === 'succeeded' && !data?.when && !data?.isDefault && data?.maxTraversals === null && problems === 0;
  // On the insights page: a band as wide as the share of runs that took the edge.
  const stats = data?.stats;
  // Far out (semantic zoom), no label: it could not be read, and a large graph draws thousands.
  const far = useZoomLevel() === 'far';
  return (
    <>
      {stats !== undefined && stats.share > 0 ? (
        // Traffic drawn as a band under the edge, so the arrowhead keeps its size.
        <path d={path} className="edge-traffic" fill="none" style={{ strokeWidth: 2 + 10 * stats.share }} />
      ) : null}
      <BaseEdge
        id={id}
        path={path}
        className="outcome-edge"
        data-outcome={main}
        data-loop={data?.maxTraversals !== null ? 'true' : undefined}
        data-selected={selected ? 'true' : undefined}
        data-diff={data?.diff}
        data-taken={taken === undefined ? undefined : String(taken)}
        data-share={stats === undefined ? undefined : stats.share.toFixed(2)}
        {...(markerEnd === undefined || far ? {} : { markerEnd })}
        {...(far ? { interactionWidth: 0 } : {})}
      />
      {why !== undefined ? (
        // A wide invisible path along the edge, so hovering it says why it was taken or not.
        <path d={path} fill="none" stroke="transparent" strokeWidth={14} className="edge-why" data-testid={`edge-why-${id}`}>
          <title>{`${taken === true ? 'taken' : 'not taken'}: ${why}`}</title>
        </path>
      ) : null}
      {far || (plain && stats === undefined && !handoff) ? null : (
        <EdgeLabelRenderer>
          <div
            className="edge-label nodrag nopan"
            data-outcome={main}
            style={{ transform: `translate(-50%, -50%) translate(${label.x}px, ${label.y}px)` }}
            data-testid={`edge-label-${id}`}
            data-at={at === undefined ? undefined : `${at.t} ${at.dy}`}
          >
            {problems > 0 ? (
              <span className="edge-problem" data-testid={`edge-problem-${id}`} title={`${problems} problem${problems === 1 ? '' : 's'}: see Problems`}>
                !{problems > 1 ? problems : ''}
              </span>
            ) : null}
            {stats !== undefined ? (
              <span
                className="edge-share"
                data-never={stats.taken === 0 ? 'true' : undefined}
                data-testid={`edge-share-${id}`}
                title={`taken ${stats.taken} of ${stats.decided} times its source decided; by ${Math.round(stats.share * 100)}% of runs`}
              >
                {stats.frequency === null ? '–' : `${Math.round(stats.frequency * 100)}%`}
              </span>
            ) : null}
            {handoff ? (
              <span className="edge-handoff" data-testid={`edge-handoff-${id}`} title="the step after this edge receives a handoff record from the step before it (what was completed, what to do next, constraints, references)">
                <Handshake size={11} aria-hidden="true" /> handoff
              </span>
            ) : null}
            {plain ? null : outcomes.map((o) => (
              <span key={o} className="edge-outcome" data-outcome={o}>
                {o.replace('_', ' ')}
              </span>
            ))}
            {!plain && data?.isDefault ? <span className="edge-outcome" data-outcome="default">default</span> : null}
            {data?.maxTraversals !== null && data?.maxTraversals !== undefined ? (
              <span className="edge-loop" title="loop edge: traversals allowed">↺ {data.maxTraversals}</span>
            ) : null}
            {data?.when ? (
              <span className="edge-when mono" title={data.when}>
                {data.when.length > 36 ? `${data.when.slice(0, 34)}…` : data.when}
              </span>
            ) : null}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const OutcomeEdge = memo(OutcomeEdgeView);
