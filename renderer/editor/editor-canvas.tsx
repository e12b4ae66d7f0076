// The editable canvas: React Flow over the editor's document. The document is the truth; nodes
// and edges are a projection of it, rebuilt per change but reusing every node object whose
// step, position, selection and problems did not change, so memoized nodes skip rendering and a
// 1,000-step graph stays fluid while one node is dragged. While mounted, the canvas lends the
// editor's commands its camera (fit, zoom, reveal) through the store.
import { memo, useCallback, useMemo, useRef, useState, type DragEvent } from 'react';
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type FinalConnectionState,
  type NodeChange,
  type OnConnectEnd,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { SemanticZoomStyle } from '../graph/semantic-zoom-style.tsx';
import { useLabelPlaces } from '../graph/label-places.ts';
import type { LabelPlace } from '../graph/edge-label-layout.ts';
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { STEP_KINDS, type EdgeOutcome, type StepKind } from '../../shared/definition/names.ts';
import { edgeOutcomesFor } from '../../shared/definition/kind-outcomes.ts';
import type { Diagnostic } from '../api/api-types.ts';
import { CANVAS_MIN_ZOOM, DEFAULT_EDGE_OPTIONS, EDGE_TYPES, NODE_TYPES, PRO_OPTIONS } from '../graph/flow-defaults.ts';
import { NODE_HEIGHT, NODE_WIDTH, nodeData, STEP_HANDLES, type OutcomeFlowEdge, type StepFlowNode } from '../graph/to-flow.ts';
import { useTheme } from '../core/theme-store.ts';
import { positionsOf, useEditor, type Selection } from './editor-store.ts';
import { FIT_VIEW_OPTIONS, useCanvasCamera, useDropPoint } from './canvas-camera.ts';
import { connect, outcomesOf, withPositions, type Layout, type Point } from './doc-ops.ts';
import { runCommand } from './editor-commands.ts';
import { insertStepCommand } from './step-commands.ts';
import { OutcomePicker } from './outcome-picker.tsx';
import { ConnectPicker } from './connect-picker.tsx';
import { PalettePopover } from './palette.tsx';
import { useEditorPrefs } from './editor-prefs.ts';
import { EDGES_AFTER_NODES, onCanvasFocusIn, onCanvasTab, useEdgeRingZoom, useFocusKept } from './canvas-keyboard.ts';
import { FarCanvas } from './far-canvas.tsx';
import { useFarLevel, VISIBLE_ONLY_FROM } from './far-level.ts';
import { CanvasMinimap } from './canvas-minimap.tsx';

const SNAP: [number, number] = [16, 16];
const MULTI_KEYS = ['Shift', 'Meta', 'Control'];
const NO_PROBLEMS: readonly Diagnostic[] = [];
/** Past this many steps, failure edges are drawn solid: a dashed path tens of thousands of pixels long is slow to paint. */
export const LARGE_GRAPH = 200;
const NO_EDGES: OutcomeFlowEdge[] = [];

/** Smaller than React Flow's 200 × 150: the overview, without covering the canvas. */
const MINIMAP_SIZE = { width: 150, height: 100 };

export const KIND_DRAG_TYPE = 'application/weft-step-kind';
/** The edges are walked after the steps by Tab (canvas-keyboard.ts). */
const EDGE_OPTIONS = { ...DEFAULT_EDGE_OPTIONS, ...EDGES_AFTER_NODES };

interface Props {
  problemsByStep: Readonly<Record<string, readonly Diagnostic[]>>;
  problemsByEdge: Readonly<Record<string, readonly Diagnostic[]>>;
}

/** Each step's size as React Flow measured it in the page. */
type Measured = Map<string, { width: number; height: number }>;

interface NodeCacheEntry {
  step: Step;
  position: Point;
  selected: boolean;
  problems: readonly Diagnostic[];
  node: StepFlowNode;
}

/** A node's box never changes size (semantic-zoom.ts): its size before React Flow has measured it. */
const NODE_SIZE = { width: NODE_WIDTH, height: NODE_HEIGHT };

/**
 * Builds nodes, reusing the previous object of each node whose inputs are unchanged. Every node
 * carries a size: the one measured before (`measured`), or NODE_SIZE for a node React Flow never
 * drew. React Flow counts a node without one as not yet drawn and holds every fit back until it
 * is, which left F and the fit buttons doing nothing after the first edit; and a large workflow,
 * of which React Flow draws only the nodes in view, was fitted to the few nodes drawn at open,
 * not the whole workflow.
 */
function useNodes(doc: Workflow, positions: Layout, selection: Selection, problemsByStep: Props['problemsByStep'], measured: Measured): StepFlowNode[] {
  const cache = useRef(new Map<string, NodeCacheEntry>());
  return useMemo(() => {
    const selected = new Set(selection.steps);
    const next = new Map<string, NodeCacheEntry>();
    const nodes = doc.steps.map((step, i) => {
      const position = positions[step.id] ?? { x: i * 40, y: i * 40 };
      const isSelected = selected.has(step.id);
      const problems = problemsByStep[step.id] ?? NO_PROBLEMS;
      const old = cache.current.get(step.id);
      if (old !== undefined && old.step === step && old.position === position && old.selected === isSelected && old.problems === problems) {
        next.set(step.id, old);
        return old.node;
      }
      const node: StepFlowNode = {
        id: step.id,
        type: 'step',
        position,
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        handles: STEP_HANDLES,
        measured: measured.get(step.id) ?? NODE_SIZE,
        selected: isSelected,
        data: nodeData(step, problems, null),
      };
      next.set(step.id, { step, position, selected: isSelected, problems, node });
      return node;
    });
    cache.current = next;
    return nodes;
  }, [doc.steps, positions, selection.steps, problemsByStep, measured]);
}

interface EdgeCacheEntry {
  edge: Workflow['edges'][number];
  selected: boolean;
  problems: number;
  at: LabelPlace | undefined;
  flow: OutcomeFlowEdge;
}

const samePlace = (a: LabelPlace | undefined, b: LabelPlace | undefined): boolean => a === b || (a !== undefined && b !== undefined && a.t === b.t && a.dy === b.dy);

function useEdges(doc: Workflow, selection: Selection, problemsByEdge: Props['problemsByEdge'], labelAt: Readonly<Record<string, LabelPlace>>): OutcomeFlowEdge[] {
  const cache = useRef(new Map<string, EdgeCacheEntry>());
  return useMemo(() => {
    const selected = new Set(selection.edges);
    const next = new Map<string, EdgeCacheEntry>();
    const edges = doc.edges.map((edge) => {
      const isSelected = selected.has(edge.id);
      const problems = problemsByEdge[edge.id]?.length ?? 0;
      const at = labelAt[edge.id];
      const old = cache.current.get(edge.id);
      if (old !== undefined && old.edge === edge && old.selected === isSelected && old.problems === problems && samePlace(old.at, at)) {
        next.set(edge.id, old);
        return old.flow;
      }
      const flow: OutcomeFlowEdge = {
        id: edge.id,
        type: 'outcome',
        source: edge.from,
        target: edge.to,
        selected: isSelected,
        data: { outcomes: outcomesOf(edge), when: edge.when ?? null, isDefault: edge.default === true, maxTraversals: edge.maxTraversals ?? null, runId: null, problems, ...(at === undefined ? {} : { labelAt: at }) },
      };
      next.set(edge.id, { edge, selected: isSelected, problems, at, flow });
      return flow;
    });
    cache.current = next;
    return edges;
  }, [doc.edges, selection.edges, problemsByEdge, labelAt]);
}


type Pending =
  | { kind: 'outcome'; from: string; to: string; at: Point; options: EdgeOutcome[] }
  | { kind: 'palette'; from: string | null; at: Point; flowAt: Point };

function EditorCanvasView({ problemsByStep, problemsByEdge }: Props) {
  const theme = useTheme((s) => s.theme);
  const doc = useEditor((s) => s.doc);
  const basePositions = useEditor((s) => s.basePositions);
  const openedLayout = useEditor((s) => s.openedLayout);
  const selection = useEditor((s) => s.selection);
  const connectFrom = useEditor((s) => (s.overlay?.kind === 'connect' ? s.overlay.from : null));
  const snap = useEditorPrefs((s) => s.snapToGrid);
  const showMinimap = useEditorPrefs((s) => s.showMinimap);
  const flow = useReactFlow();
  const wrapper = useRef<HTMLDivElement>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  useFocusKept(wrapper);
  useEdgeRingZoom(wrapper);

  const positions = useMemo(() => (doc === null ? {} : positionsOf(doc, basePositions, openedLayout)), [doc, basePositions, openedLayout]);
  const measured = useRef<Measured>(new Map()).current;
  const nodes = useNodes(doc ?? EMPTY_DOC, positions, selection, problemsByStep, measured);
  const labelAt = useLabelPlaces(doc ?? EMPTY_DOC, positions);
  const edges = useEdges(doc ?? EMPTY_DOC, selection, problemsByEdge, labelAt);
  const { large, far, nodes: flowNodes } = useFarLevel(doc, positions, nodes);

  useCanvasCamera(wrapper);
  const dropPoint = useDropPoint(wrapper);

  const onNodesChange = useCallback((changes: NodeChange<StepFlowNode>[]) => {
    const moves: Layout = {};
    let moved = false;
    let selectionChanged = false;
    const state = useEditor.getState();
    const steps = new Set(state.selection.steps);
    for (const change of changes) {
      if (change.type === 'dimensions' && change.dimensions !== undefined) {
        measured.set(change.id, change.dimensions);
      } else if (change.type === 'position' && change.position !== undefined) {
        moves[change.id] = change.position;
        moved = true;
      } else if (change.type === 'select') {
        if (change.selected) steps.add(change.id);
        else steps.delete(change.id);
        selectionChanged = true;
      }
    }
    if (moved) {
      const current = state.doc;
      if (current !== null) {
        const base = positionsOf(current, state.basePositions, state.openedLayout);
        state.edit((d) => withPositions(d, base, moves));
      }
    }
    if (selectionChanged) state.select({ steps: [...steps], edges: useEditor.getState().selection.edges });
  }, [measured]);

  const onEdgesChange = useCallback((changes: EdgeChange<OutcomeFlowEdge>[]) => {
    const state = useEditor.getState();
    const edgeSet = new Set(state.selection.edges);
    let changed = false;
    for (const change of changes) {
      if (change.type !== 'select') continue;
      if (change.selected) edgeSet.add(change.id);
      else edgeSet.delete(change.id);
      changed = true;
    }
    if (changed) state.select({ steps: useEditor.getState().selection.steps, edges: [...edgeSet] });
  }, []);

  const onConnect = useCallback((connection: Connection) => {
    const current = useEditor.getState().doc;
    const source = current?.steps.find((s) => s.id === connection.source);
    if (current === null || source === undefined || connection.source === connection.target) return;
    const options = edgeOutcomesFor(source, current.edges.some((e) => e.from === source.id && e.maxTraversals !== undefined));
    if (options.length === 0) return;
    const target = flow.getInternalNode(connection.target);
    const at = target === undefined ? { x: 200, y: 200 } : flow.flowToScreenPosition({ x: target.internals.positionAbsolute.x, y: target.internals.positionAbsolute.y });
    setPending({ kind: 'outcome', from: connection.source, to: connection.target, at, options });
  }, [flow]);

  const onConnectEnd: OnConnectEnd = useCallback((event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || state.fromNode === null) return;
    const point = 'changedTouches' in event ? event.changedTouches[0] : event;
    if (point === undefined) return;
    const flowAt = dropPoint({ x: point.clientX, y: point.clientY });
    setPending({ kind: 'palette', from: state.fromNode.id, at: { x: point.clientX, y: point.clientY }, flowAt });
  }, [dropPoint]);

  /** Where a popover about a step opens: at the step's top left on screen. */
  const screenAtStep = (id: string): Point => {
    const node = flow.getInternalNode(id);
    return node === undefined ? { x: 200, y: 200 } : flow.flowToScreenPosition({ x: node.internals.positionAbsolute.x, y: node.internals.positionAbsolute.y });
  };

  const finishConnect = (outcomes: EdgeOutcome[]) => {
    if (pending?.kind !== 'outcome') return;
    const { from, to } = pending;
    setPending(null);
    const state = useEditor.getState();
    let edgeId = '';
    state.edit((d) => {
      const out = connect(d, from, to, outcomes);
      edgeId = out.id;
      return out.doc;
    });
    if (edgeId !== '') state.select({ steps: [], edges: [edgeId] });
  };

  const placeStep = (kind: StepKind, flowAt: Point, from: string | null) => {
    setPending(null);
    runCommand(insertStepCommand, { kind, at: flowAt, after: from });
  };

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes(KIND_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (event: DragEvent) => {
    const kind = STEP_KINDS.find((k) => k === event.dataTransfer.getData(KIND_DRAG_TYPE));
    if (kind === undefined) return;
    event.preventDefault();
    placeStep(kind, dropPoint({ x: event.clientX, y: event.clientY }), null);
  };

  if (doc === null) return null;
  return (
    <div className="graph editor-canvas" data-testid="editor-canvas" data-large={doc.steps.length > LARGE_GRAPH ? 'true' : undefined} ref={wrapper} onDragOver={onDragOver} onDrop={onDrop} onKeyDown={onCanvasTab} onFocus={onCanvasFocusIn}>
      <ReactFlow
        nodes={flowNodes}
        edges={far ? NO_EDGES : edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        defaultEdgeOptions={EDGE_OPTIONS}
        colorMode={theme}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        onNodeDragStart={() => useEditor.getState().beginGesture()}
        onNodeDragStop={() => useEditor.getState().endGesture()}
        onSelectionDragStart={() => useEditor.getState().beginGesture()}
        onSelectionDragStop={() => useEditor.getState().endGesture()}
        onPaneClick={() => {
          setPending(null);
          useEditor.getState().select({ steps: [], edges: [] });
        }}
        fitView
        fitViewOptions={FIT_VIEW_OPTIONS}
        minZoom={CANVAS_MIN_ZOOM}
        maxZoom={2}
        snapToGrid={snap}
        snapGrid={SNAP}
        deleteKeyCode={null}
        multiSelectionKeyCode={MULTI_KEYS}
        selectionKeyCode="Shift"
        selectNodesOnDrag={false}
        elevateEdgesOnSelect
        onlyRenderVisibleElements={doc.steps.length > VISIBLE_ONLY_FROM}
        proOptions={PRO_OPTIONS}
        aria-label={`editor canvas of ${doc.name}`}
        // Where the focus goes when the step or edge that had it is deleted (canvas-keyboard.ts).
        tabIndex={-1}
      >
        <SemanticZoomStyle />
        {far ? (
          // A grid of dots a tenth of a pixel apart is a flat tint, and costs a repaint per frame.
          <FarCanvas doc={doc} positions={positions} problemsByStep={problemsByStep} problemsByEdge={problemsByEdge} />
        ) : (
          <Background variant={snap ? BackgroundVariant.Lines : BackgroundVariant.Dots} gap={snap ? 16 : 18} size={1.2} color="var(--canvas-dots)" />
        )}
        {!showMinimap ? null : large ? (
          <CanvasMinimap doc={doc} positions={positions} size={MINIMAP_SIZE} />
        ) : (
          <MiniMap pannable zoomable className="minimap" style={MINIMAP_SIZE} nodeStrokeWidth={3} nodeColor="var(--minimap-node)" />
        )}
        <Controls showInteractive={false} fitViewOptions={FIT_VIEW_OPTIONS} />
      </ReactFlow>
      {pending?.kind === 'outcome' ? (
        <OutcomePicker at={pending.at} from={pending.from} to={pending.to} options={pending.options} onPick={finishConnect} onCancel={() => setPending(null)} />
      ) : null}
      {connectFrom !== null ? (
        <ConnectPicker
          at={screenAtStep(connectFrom)}
          from={connectFrom}
          steps={doc.steps}
          onPick={(to) => {
            useEditor.getState().show(null);
            onConnect({ source: connectFrom, target: to, sourceHandle: null, targetHandle: null });
          }}
          onCancel={() => useEditor.getState().show(null)}
        />
      ) : null}
      {pending?.kind === 'palette' ? (
        <PalettePopover at={pending.at} title={`Add a step after ${pending.from ?? ''}`} onPick={(kind) => placeStep(kind, pending.flowAt, pending.from)} onCancel={() => setPending(null)} />
      ) : null}
    </div>
  );
}

const EMPTY_DOC: Workflow = { format: 'weft/v1', id: 'empty', version: 1, name: '', steps: [], edges: [] };

export const EditorCanvas = memo(EditorCanvasView);
