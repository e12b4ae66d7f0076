// The visual diff of two versions of a workflow: drawn side by side, or overlaid in one graph,
// with colours for added, removed, changed and moved steps and edges, and a list of the changes
// that centres each on the canvas, shows each changed field's old and new value, and selects the
// step or edge in the editor (selected on its graph when the diff closes). The diff itself is
// shared/definition/workflow-diff.ts, the same one `weft diff` prints.
import { memo, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Background, BackgroundVariant, ReactFlow, ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { Columns2, Layers, X } from 'lucide-react';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { diffWorkflows } from '../../../shared/definition/workflow-diff.ts';
import { DEFAULT_EDGE_OPTIONS, EDGE_TYPES, NODE_TYPES, PRO_OPTIONS } from '../../graph/flow-defaults.ts';
import { NODE_HEIGHT, NODE_WIDTH, nodeData, STEP_HANDLES, spreadToFit, type OutcomeFlowEdge, type StepFlowNode } from '../../graph/to-flow.ts';
import { useTheme } from '../../core/theme-store.ts';
import { outcomesOf, type Layout } from '../doc-ops.ts';
import { changeItems, markOverlay, markSide, type ChangeItem, type MarkedGraph } from './diff-model.ts';
import { DiffFields } from './diff-fields.tsx';
import { useEditor } from '../editor-store.ts';
import { useSidePanel } from '../side-panel-store.ts';
import './diff.css';

export interface DiffSide {
  label: string;
  workflow: Workflow;
}

interface Props {
  a: DiffSide;
  b: DiffSide;
  /** Positions for steps a version does not place itself (stored versions keep no layout). */
  positions: Layout;
  onClose(): void;
  /** Version pickers rendered in the header (the editor supplies them). */
  pickers?: ReactNode;
}

export function DiffView({ a, b, positions, onClose, pickers }: Props) {
  const [mode, setMode] = useState<'side' | 'overlay'>('side');
  const [focus, setFocus] = useState<{ item: ChangeItem; seq: number } | null>(null);
  const diff = useMemo(() => diffWorkflows(a.workflow, b.workflow), [a.workflow, b.workflow]);
  const items = useMemo(() => changeItems(diff, a.workflow, b.workflow), [diff, a.workflow, b.workflow]);
  const graphs = useMemo(
    () => ({ a: markSide(a.workflow, diff, 'a'), b: markSide(b.workflow, diff, 'b'), overlay: markOverlay(a.workflow, b.workflow, diff) }),
    [a.workflow, b.workflow, diff],
  );
  const pick = (item: ChangeItem): void => {
    setFocus({ item, seq: (focus?.seq ?? 0) + 1 });
    selectInEditor(item);
  };
  // Once an entry was picked, closing the diff shows it in the inspector, selected on the graph.
  const close = (): void => {
    if (focus !== null) useSidePanel.getState().show('inspect');
    onClose();
  };
  return (
    <div className="diff-view" role="region" aria-label="version diff" data-testid="diff-view">
      <div className="diff-head">
        <div className="diff-title">
          Compare <span className="diff-side-label">{a.label}</span> → <span className="diff-side-label">{b.label}</span>
        </div>
        {pickers}
        <div className="diff-summary" data-testid="diff-summary">
          {diff.same ? 'no differences' : `${items.length} change${items.length === 1 ? '' : 's'}${diff.layoutOnly ? ' (layout only)' : ''}`}
        </div>
        <div className="toolbar-spacer" />
        <div className="segmented" role="group" aria-label="diff layout">
          <button type="button" aria-pressed={mode === 'side'} onClick={() => setMode('side')} data-testid="diff-side-by-side">
            <Columns2 size={14} aria-hidden="true" /> Side by side
          </button>
          <button type="button" aria-pressed={mode === 'overlay'} onClick={() => setMode('overlay')} data-testid="diff-overlay">
            <Layers size={14} aria-hidden="true" /> Overlay
          </button>
        </div>
        <button type="button" className="icon-button" onClick={close} aria-label="close the diff" data-testid="diff-close">
          <X size={15} aria-hidden="true" />
        </button>
      </div>
      <div className="diff-body">
        <ol className="diff-list" aria-label="changes" data-testid="diff-list">
          {items.length === 0 ? <li className="faint diff-empty">The two versions are the same.</li> : null}
          {items.map((item) => (
            <li key={item.key} className="diff-entry" data-current={focus?.item.key === item.key ? 'true' : undefined}>
              <button type="button" className="diff-item" data-mark={item.mark} data-testid="diff-item" aria-current={focus?.item.key === item.key ? 'true' : undefined} onClick={() => pick(item)}>
                <span className="diff-mark" aria-hidden="true">
                  {item.mark === 'added' ? '+' : item.mark === 'removed' ? '−' : item.mark === 'moved' ? '↔' : '~'}
                </span>
                {item.text}
              </button>
              <DiffFields fields={item.fields} onClick={() => pick(item)} />
            </li>
          ))}
        </ol>
        {mode === 'side' ? (
          <div className="diff-canvases">
            <DiffCanvas label={a.label} graph={graphs.a} positions={positions} layout={a.workflow.layout} focus={focus} />
            <DiffCanvas label={b.label} graph={graphs.b} positions={positions} layout={b.workflow.layout} focus={focus} />
          </div>
        ) : (
          <div className="diff-canvases diff-canvases-one">
            <DiffCanvas label={`${a.label} → ${b.label}`} graph={graphs.overlay} positions={positions} layout={b.workflow.layout ?? a.workflow.layout} fallbackLayout={a.workflow.layout} focus={focus} />
          </div>
        )}
      </div>
      <div className="diff-legend" aria-hidden="true">
        <span data-mark="added">added</span>
        <span data-mark="removed">removed</span>
        <span data-mark="changed">changed</span>
        <span data-mark="moved">moved</span>
      </div>
    </div>
  );
}

interface CanvasProps {
  label: string;
  graph: MarkedGraph;
  positions: Layout;
  layout: Workflow['layout'];
  fallbackLayout?: Workflow['layout'];
  focus: { item: ChangeItem; seq: number } | null;
}

const DiffCanvas = memo(function DiffCanvas(props: CanvasProps) {
  return (
    <div className="diff-canvas" data-testid="diff-canvas">
      <div className="diff-canvas-label">{props.label}</div>
      <ReactFlowProvider>
        <DiffFlow {...props} />
      </ReactFlowProvider>
    </div>
  );
});

function DiffFlow({ graph, positions, layout, fallbackLayout, focus }: CanvasProps) {
  const theme = useTheme((s) => s.theme);
  const flow = useReactFlow();
  // A file's layout may be drawn for smaller boxes: spread it as the editor does.
  const own = useMemo(() => (layout === undefined ? undefined : spreadToFit(layout)), [layout]);
  const fallback = useMemo(() => (fallbackLayout === undefined ? undefined : spreadToFit(fallbackLayout)), [fallbackLayout]);
  const nodes = useMemo(
    () =>
      graph.steps.map(({ step, mark, parts }, i): StepFlowNode => ({
        id: step.id,
        type: 'step',
        position: own?.[step.id] ?? fallback?.[step.id] ?? positions[step.id] ?? { x: i * 60, y: 400 },
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        handles: STEP_HANDLES,
        selected: focus?.item.target.kind === 'step' && focus.item.target.id === step.id,
        // The changed parts take the place of validation findings in the node's hover text.
        data: { ...nodeData(step, [], null), problems: parts.length > 0 ? [`changed: ${parts.join(', ')}`] : [], diff: mark },
      })),
    [graph.steps, positions, own, fallback, focus],
  );
  const edges = useMemo(
    () =>
      graph.edges.map(({ edge, mark }): OutcomeFlowEdge => ({
        id: edge.id,
        type: 'outcome',
        source: edge.from,
        target: edge.to,
        selected: focus?.item.target.kind === 'edge' && focus.item.target.id === edge.id,
        data: { outcomes: outcomesOf(edge), when: edge.when ?? null, isDefault: edge.default === true, maxTraversals: edge.maxTraversals ?? null, runId: null, diff: mark },
      })),
    [graph.edges, focus],
  );
  useEffect(() => {
    if (focus === null) return;
    const target = focus.item.target;
    const ids = target.kind === 'step' ? [target.id] : target.kind === 'edge' ? edgeEnds(graph, target.id) : [];
    const present = ids.filter((id) => graph.steps.some((s) => s.step.id === id));
    if (present.length > 0) void flow.fitView({ nodes: present.map((id) => ({ id })), duration: 250, padding: 0.6, maxZoom: 1.2 });
  }, [focus, flow, graph]);
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      edgeTypes={EDGE_TYPES}
      defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
      colorMode={theme}
      fitView
      fitViewOptions={{ padding: 0.15, maxZoom: 1.1 }}
      minZoom={0.05}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      proOptions={PRO_OPTIONS}
    >
      <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color="var(--canvas-dots)" />
    </ReactFlow>
  );
}

/** Selects the entry's step or edge in the editor's document (a workflow-level entry clears the selection); nothing when the editor has no such element, e.g. a removed step. */
function selectInEditor(item: ChangeItem): void {
  const { doc, select } = useEditor.getState();
  const target = item.target;
  if (doc === null) return;
  if (target.kind === 'workflow') select({ steps: [], edges: [] });
  else if (target.kind === 'step' && doc.steps.some((s) => s.id === target.id)) select({ steps: [target.id], edges: [] });
  else if (target.kind === 'edge' && doc.edges.some((e) => e.id === target.id)) select({ steps: [], edges: [target.id] });
}

function edgeEnds(graph: MarkedGraph, id: string): string[] {
  const edge = graph.edges.find((e) => e.edge.id === id)?.edge;
  return edge === undefined ? [] : [edge.from, edge.to];
}
