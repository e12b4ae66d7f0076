// The path check behind approval rules (docs/policies.md, "Approvals"): which steps can be reached
// from an entry without passing a person's approval. A human step with task `approve` gates only
// the edges it leaves on `succeeded` (approved): an edge it leaves on `rejected`, `expired`,
// `failed` or `any` carries no approval, so a step reached that way is ungated. Loop edges count
// (a path is a path), and a compensation step is reached from the step it offsets once that step
// succeeded. Each ungated step keeps the way it was reached, so a diagnostic can show the path.
import type { WorkflowGraph } from '../validator/graph/workflow-graph.ts';

/** Whether step `v` is an approval gate: a human step whose task is `approve`. */
const isApproval = (graph: WorkflowGraph, v: number): boolean => {
  const step = graph.step(v);
  return step.kind === 'human' && step.config.task === 'approve';
};

/**
 * For each step reachable without an approval, the step it was first reached from on such a path
 * (-1 for an entry). A step missing from the map is behind an approval on every path.
 *
 * @example
 * const ungated = ungatedSteps(new WorkflowGraph(workflow));
 * ungated.has(graph.indexOf.get('charge_card')); // true: some path skips the approval
 */
export function ungatedSteps(graph: WorkflowGraph): Map<number, number> {
  const from = new Map<number, number>();
  const queue: number[] = [];
  for (const v of graph.entries) {
    from.set(v, -1);
    queue.push(v);
  }
  const reach = (to: number, by: number): void => {
    if (from.has(to)) return;
    from.set(to, by);
    queue.push(to);
  };
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    const approval = isApproval(graph, v);
    for (const e of graph.out[v] ?? []) {
      const approved = approval && [...graph.outcomesBehind(e)].every((o) => o === 'succeeded');
      if (!approved) reach(e.to, v);
    }
    // An ungated step that succeeded may be offset by its compensation, without an approval.
    const c = graph.step(v).compensation;
    const comp = c === undefined ? undefined : graph.indexOf.get(c);
    if (comp !== undefined && comp !== v && !approval) reach(comp, v);
  }
  return from;
}

/** The ids along the ungated path that reaches `v`, from its entry; an approval on it is passed "(not approved)". */
export function ungatedPath(graph: WorkflowGraph, from: ReadonlyMap<number, number>, v: number): string[] {
  const path: string[] = [];
  for (let at = v, guard = 0; at >= 0 && guard <= graph.size; guard++) {
    path.unshift(at !== v && isApproval(graph, at) ? `${graph.step(at).id} (not approved)` : graph.step(at).id);
    at = from.get(at) ?? -1;
  }
  return path;
}
