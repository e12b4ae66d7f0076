// The editable canvas: React Flow over the editor's document. The document is the truth; nodes
// and edges are a projection of it, rebuilt per change but reusing every node object whose
// step, position, selection and problems did not change, so memoized nodes skip rendering and a
// 1,000-step graph stays fluid while one node is dragged. While mounted, the canvas lends the
// editor's commands its camera (fit, zoom, reveal) through the store.
import { memo, useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
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
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { STEP_KINDS, type EdgeOutcome, type StepKind } from '../../shared/definition/names.ts';
import { edgeOutcomesFor } from '../../shared/definition/kind-outcomes.ts';
import type { Diagnostic } from '../api/api-types.ts';
import { DEFAULT_EDGE_OPTIONS, EDGE_TYPES, NODE_TYPES, PRO_OPTIONS } from '../graph/flow-defaults.ts';
import { NODE_HEIGHT, NODE_WIDTH, nodeData, STEP_HANDLES, type OutcomeFlowEdge, type StepFlowNode } from '../graph/to-flow.ts';
import { useTheme } from '../core/theme-store.ts';
import { positionsOf, useEditor, type EditorView, type Selection } from './editor-store.ts';
import { connect, outcomesOf, withPositions, type Layout, type Point } from './doc-ops.ts';
import { runCommand } from './editor-commands.ts';
import { insertStepCommand } from './step-commands.ts';
import { OutcomePicker } from './outcome-picker.tsx';
import { ConnectPicker } from './connect-picker.tsx';
import { PalettePopover } from './palette.tsx';
import { useEditorPrefs } from './editor-prefs.ts';
import { EDGES_AFTER_NODES, onCanvasFocusIn, onCanvasTab, useEdgeRingZoom, useFocusKept } from './canvas-keyboard.ts';

const SNAP: [number, number] = [16, 16];
const MULTI_KEYS = ['Shift', 'Meta', 'Control'];
const NO_PROBLEMS: readonly Diagnostic[] = [];
/** Past this many steps, failure edges are drawn solid: a dashed path tens of thousands of pixels long is slow to paint. */
export const LARGE_GRAPH = 200;

export const KIND_DRAG_TYPE = 'application/weft-step-kind';
/** How the canvas fits a workflow into view: at open, and with F. */
export const FIT_VIEW_OPTIONS = { padding: 0.08, maxZoom: 1.1, minZoom: 0.4 };
/** The edges are walked after the steps by Tab (canvas-keyboard.ts). */
const EDGE_OPTIONS = { ...DEFAULT_EDGE_OPTIONS, ...EDGES_AFTER_NODES };

interface Props {
  problemsByStep: Readonly<Record<string, readonly Diagnostic[]>>;
  problemsByEdge: Readonly<Record<string, readonly Diagnostic[]>>;
}

interface NodeCacheEntry {
  step: Step;
  position: Point;
  selected: boolean;
  problems: readonly Diagnostic[];
  node: StepFlowNode;
}

/** Builds nodes, reusing the previous object of each node whose inputs are unchanged. */
function useNodes(doc: Workflow, positions: Layout, selection: Selection, problemsByStep: Props['problemsByStep']): StepFlowNode[] {
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
        selected: isSelected,
        data: nodeData(step, problems, null),
      };
      next.set(step.id, { step, position, selected: isSelected, problems, node });
      return node;
    });
    cache.current = next;
    return nodes;
  }, [doc.steps, positions, selection.steps, problemsByStep]);
}

function useEdges(doc: Workflow, selection: Selection, problemsByEdge: Props['problemsByEdge']): OutcomeFlowEdge[] {
  const cache = useRef(new Map<string, { edge: Workflow['edges'][number]; selected: boolean; problems: number; flow: OutcomeFlowEdge }>());
  return useMemo(() => {
    const selected = new Set(selection.edges);
    const next = new Map<string, { edge: Workflow['edges'][number]; selected: boolean; problems: number; flow: OutcomeFlowEdge }>();
    const edges = doc.edges.map((edge) => {
      const isSelected = selected.has(edge.id);
      const problems = problemsByEdge[edge.id]?.length ?? 0;
      const old = cache.current.get(edge.id);
      if (old !== undefined && old.edge === edge && old.selected === isSelected && old.problems === problems) {
        next.set(edge.id, old);
        return old.flow;
      }
      const flow: OutcomeFlowEdge = {
        id: edge.id,
        type: 'outcome',
        source: edge.from,
        target: edge.to,
        selected: isSelected,
        data: { outcomes: outcomesOf(edge), when: edge.when ?? null, isDefault: edge.default === true, maxTraversals: edge.maxTraversals ?? null, runId: null, problems },
      };
      next.set(edge.id, { edge, selected: isSelected, problems, flow });
      return flow;
    });
    cache.current = next;
    return edges;
  }, [doc.edges, selection.edges, problemsByEdge]);
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
  const flow = useReactFlow();
  const wrapper = useRef<HTMLDivElement>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  useFocusKept(wrapper);
  useEdgeRingZoom(wrapper);

  const positions = useMemo(() => (doc === null ? {} : positionsOf(doc, basePositions, openedLayout)), [doc, basePositions, openedLayout]);
  const nodes = useNodes(doc ?? EMPTY_DOC, positions, selection, problemsByStep);
  const edges = useEdges(doc ?? EMPTY_DOC, selection, problemsByEdge);

  useEffect(() => {
    const view: EditorView = {
      centre() {
        const pane = wrapper.current?.getBoundingClientRect();
        const x = pane === undefined ? window.innerWidth / 2 : pane.left + pane.width / 2;
        const y = pane === undefined ? window.innerHeight / 2 : pane.top + pane.height / 2;
        return { screen: { x, y }, flow: flow.screenToFlowPosition({ x, y }) };
      },
      fitAll: () => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 250 }),
      // React Flow queues a fit until its next node update, so a step added just now is in it.
      fitSteps: (ids, options) => void flow.fitView({ nodes: ids.map((id) => ({ id })), duration: 250, ...options }),
      zoomIn: () => void flow.zoomIn({ duration: 150 }),
      zoomOut: () => void flow.zoomOut({ duration: 150 }),
    };
    useEditor.getState().setView(view);
    return () => {
      if (useEditor.getState().view === view) useEditor.getState().setView(null);
    };
  }, [flow]);

  const onNodesChange = useCallback((changes: NodeChange<StepFlowNode>[]) => {
    const moves: Layout = {};
    let moved = false;
    let selectionChanged = false;
    const state = useEditor.getState();
    const steps = new Set(state.selection.steps);
    for (const change of changes) {
      if (change.type === 'position' && change.position !== undefined) {
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
  }, []);

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
    const flowAt = flow.screenToFlowPosition({ x: point.clientX, y: point.clientY });
    setPending({ kind: 'palette', from: state.fromNode.id, at: { x: point.clientX, y: point.clientY }, flowAt });
  }, [flow]);

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
    placeStep(kind, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }), null);
  };

  if (doc === null) return null;
  return (
    <div className="graph editor-canvas" data-testid="editor-canvas" data-large={doc.steps.length > LARGE_GRAPH ? 'true' : undefined} ref={wrapper} onDragOver={onDragOver} onDrop={onDrop} onKeyDown={onCanvasTab} onFocus={onCanvasFocusIn}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
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
        minZoom={0.05}
        maxZoom={2}
        snapToGrid={snap}
        snapGrid={SNAP}
        deleteKeyCode={null}
        multiSelectionKeyCode={MULTI_KEYS}
        selectionKeyCode="Shift"
        selectNodesOnDrag={false}
        elevateEdgesOnSelect
        onlyRenderVisibleElements={doc.steps.length > 150}
        proOptions={PRO_OPTIONS}
        aria-label={`editor canvas of ${doc.name}`}
        // Where the focus goes when the step or edge that had it is deleted (canvas-keyboard.ts).
        tabIndex={-1}
      >
        <Background variant={snap ? BackgroundVariant.Lines : BackgroundVariant.Dots} gap={snap ? 16 : 18} size={1.2} color="var(--canvas-dots)" />
        <MiniMap pannable zoomable className="minimap" nodeStrokeWidth={3} nodeColor="var(--minimap-node)" />
        <Controls showInteractive={false} />
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
