// The web worker behind auto-layout.ts: runs elkjs's layered layout, left to right. Loop edges
// are left out of the layering so a cycle does not pull its head to the right of its tail.
import ELK from 'elkjs/lib/elk.bundled.js';

export interface LayoutRequest {
  id: number;
  nodes: { id: string; width: number; height: number }[];
  edges: { id: string; from: string; to: string }[];
}

export interface LayoutResponse {
  id: number;
  positions?: Record<string, { x: number; y: number }>;
  error?: string;
}

const elk = new ELK();

self.onmessage = async (message: MessageEvent<LayoutRequest>) => {
  const { id, nodes, edges } = message.data;
  try {
    const graph = await elk.layout({
      id: 'root',
      layoutOptions: {
        'elk.algorithm': 'layered',
        'elk.direction': 'RIGHT',
        'elk.layered.spacing.nodeNodeBetweenLayers': '72',
        'elk.spacing.nodeNode': '36',
        'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
        'elk.edgeRouting': 'ORTHOGONAL',
      },
      children: nodes.map((n) => ({ id: n.id, width: n.width, height: n.height })),
      edges: edges.map((e) => ({ id: e.id, sources: [e.from], targets: [e.to] })),
    });
    const positions: Record<string, { x: number; y: number }> = {};
    for (const child of graph.children ?? []) positions[child.id] = { x: child.x ?? 0, y: child.y ?? 0 };
    const response: LayoutResponse = { id, positions };
    self.postMessage(response);
  } catch (error) {
    const response: LayoutResponse = { id, error: error instanceof Error ? error.message : String(error) };
    self.postMessage(response);
  }
};
