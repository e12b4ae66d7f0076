// Automatic layout with elkjs's layered algorithm, in a web worker so a 1,000-step graph never
// blocks the page. One worker, reused; each request carries an id.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { NODE_HEIGHT, NODE_WIDTH, type Positions } from './to-flow.ts';
import type { LayoutRequest, LayoutResponse } from './layout-worker.ts';

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve(p: Positions): void; reject(e: Error): void }>();

function layoutWorker(): Worker {
  if (worker !== null) return worker;
  const created = new Worker(new URL('./layout-worker.ts', import.meta.url), { type: 'module' });
  created.onmessage = (message: MessageEvent<LayoutResponse>) => {
    const entry = waiting.get(message.data.id);
    if (entry === undefined) return;
    waiting.delete(message.data.id);
    if (message.data.error !== undefined) entry.reject(new Error(message.data.error));
    else entry.resolve(message.data.positions ?? {});
  };
  worker = created;
  return created;
}

export function autoLayout(workflow: Workflow): Promise<Positions> {
  const id = nextId++;
  const request: LayoutRequest = {
    id,
    nodes: workflow.steps.map((s) => ({ id: s.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: workflow.edges.filter((e) => e.maxTraversals === undefined).map((e) => ({ id: e.id, from: e.from, to: e.to })),
  };
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    layoutWorker().postMessage(request);
  });
}
