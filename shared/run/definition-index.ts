// Lookups the runtime needs on every event, built once per definition object (runs of the same
// version share it): steps and edges by id, edges in and out of each step, and compiled helpers.
import type { Edge, Step, Workflow } from '../definition/workflow-schema.ts';
import type { EdgeOutcome } from '../definition/names.ts';
import { edgeOutcomes, isEntryStep } from '../definition/graph-rules.ts';

export interface IndexedEdge {
  edge: Edge;
  outcomes: ReadonlySet<EdgeOutcome>;
  loop: boolean;
}

export interface DefinitionIndex {
  steps: Map<string, Step>;
  edges: Map<string, IndexedEdge>;
  out: Map<string, IndexedEdge[]>;
  in: Map<string, IndexedEdge[]>;
  entries: string[];
  compensations: Set<string>;
}

const cache = new WeakMap<Workflow, DefinitionIndex>();

export function indexDefinition(workflow: Workflow): DefinitionIndex {
  const hit = cache.get(workflow);
  if (hit) return hit;
  const steps = new Map(workflow.steps.map((s) => [s.id, s]));
  const edges = new Map<string, IndexedEdge>();
  const out = new Map<string, IndexedEdge[]>(workflow.steps.map((s) => [s.id, []]));
  const inn = new Map<string, IndexedEdge[]>(workflow.steps.map((s) => [s.id, []]));
  for (const edge of workflow.edges) {
    const ie: IndexedEdge = { edge, outcomes: new Set(edgeOutcomes(edge)), loop: edge.maxTraversals !== undefined };
    edges.set(edge.id, ie);
    out.get(edge.from)?.push(ie);
    inn.get(edge.to)?.push(ie);
  }
  const compensations = new Set(workflow.steps.flatMap((s) => (s.compensation === undefined ? [] : [s.compensation])));
  const entries = workflow.steps
    .filter((s) => {
      const incoming = inn.get(s.id) ?? [];
      return isEntryStep({
        isEnd: s.kind === 'end',
        isCompensation: compensations.has(s.id),
        fedByForwardEdge: incoming.some((e) => !e.loop),
        hasEdges: incoming.length > 0 || (out.get(s.id) ?? []).length > 0,
        stepCount: workflow.steps.length,
      });
    })
    .map((s) => s.id);
  const index = { steps, edges, out, in: inn, entries, compensations };
  cache.set(workflow, index);
  return index;
}
