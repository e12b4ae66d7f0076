// What the edge inspector says about an edge: which outcomes it may follow and whether it
// closes a cycle (and so needs maxTraversals).
import type { Edge, Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { EdgeOutcome } from '../../../shared/definition/names.ts';
import { edgeOutcomesFor } from '../../../shared/definition/kind-outcomes.ts';
import { outcomesOf } from '../doc-ops.ts';

/** Whether `edge.to` leads back to `edge.from` through the document's edges. */
export function closesCycle(doc: Workflow, edge: Pick<Edge, 'from' | 'to'>): boolean {
  const next = new Map<string, string[]>();
  for (const e of doc.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const seen = new Set<string>();
  const todo = [edge.to];
  while (todo.length > 0) {
    const at = todo.pop();
    if (at === undefined || seen.has(at)) continue;
    if (at === edge.from) return true;
    seen.add(at);
    todo.push(...(next.get(at) ?? []));
  }
  return false;
}

/**
 * The outcomes the edge may choose from: those its source kind can settle with (plus
 * `exhausted` when the source has a loop edge), and any the edge already lists, so an outcome
 * the source cannot produce stays visible for the author to remove.
 */
export function offeredOutcomes(doc: Workflow, edge: Edge): EdgeOutcome[] {
  const source = doc.steps.find((s) => s.id === edge.from);
  const hasLoop = doc.edges.some((e) => e.from === edge.from && e.maxTraversals !== undefined);
  const offered = source === undefined ? [] : edgeOutcomesFor(source, hasLoop);
  const extra = outcomesOf(edge).filter((o) => !offered.includes(o));
  return [...offered, ...extra];
}

/** Outcomes the edge lists that its source can never produce. */
export function impossibleOutcomes(doc: Workflow, edge: Edge): EdgeOutcome[] {
  const source = doc.steps.find((s) => s.id === edge.from);
  const hasLoop = doc.edges.some((e) => e.from === edge.from && e.maxTraversals !== undefined);
  const possible = source === undefined ? [] : edgeOutcomesFor(source, hasLoop);
  return outcomesOf(edge).filter((o) => !possible.includes(o));
}
