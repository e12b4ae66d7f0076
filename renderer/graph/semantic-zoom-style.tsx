// Puts the canvas's zoom level and the compact title's size on the React Flow element
// (data-zoom, --node-title-size, --node-title-lines), and whether the pane is being dragged
// (data-panning), for graph.css; rendered inside <ReactFlow>.
// One element restyled per step of zoom, instead of every node re-rendering: a node reads only
// its level (useZoomLevel), which changes at two thresholds.
import { useEffect } from 'react';
import { useStore, type ReactFlowState } from '@xyflow/react';
import { compactTitle, zoomLevel, type ZoomLevel } from './semantic-zoom.ts';

const levelOf = (s: ReactFlowState): ZoomLevel => zoomLevel(s.transform[2]);
const titleOf = (s: ReactFlowState): string => {
  const t = compactTitle(s.transform[2]);
  return `${t.px} ${t.lines}`;
};
const domOf = (s: ReactFlowState): HTMLDivElement | null => s.domNode;
const panningOf = (s: ReactFlowState): boolean => s.paneDragging;

/** The node's level of detail at the canvas's current zoom; re-renders only when it changes. */
export function useZoomLevel(): ZoomLevel {
  return useStore(levelOf);
}

export function SemanticZoomStyle() {
  const level = useStore(levelOf);
  const title = useStore(titleOf);
  const dom = useStore(domOf);
  const panning = useStore(panningOf);
  useEffect(() => {
    // While the pane is dragged its drawing only moves: graph.css then gives it its own layer.
    if (dom !== null) dom.dataset['panning'] = String(panning);
  }, [dom, panning]);
  useEffect(() => {
    if (dom === null) return;
    const [px = '13', lines = '1'] = title.split(' ');
    dom.dataset['zoom'] = level;
    dom.style.setProperty('--node-title-size', `${px}px`);
    dom.style.setProperty('--node-title-lines', lines);
  }, [dom, level, title]);
  return null;
}
