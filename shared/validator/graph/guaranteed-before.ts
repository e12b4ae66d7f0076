// For each step, the steps that have certainly finished *with an output* before it starts, on
// every path. A predecessor counts only when every edge from it into the step follows outcomes
// that carry an output (`succeeded`, or `rejected`, whose output holds the reason): a step reached
// on `unknown`, `failed` or `expired` must not read an output that may not exist. (an `exhausted`
// edge carries the outcomes of the loop edges it stands in for.) They combine by
// intersection, except after `all` and `subset` joins, which wait for every (named, non-optional)
// branch and so add the union of what those branches guarantee. A branch the join ignores
// guarantees less: with `onFailedBranch: "ignore"` it ran but may have failed (what came before it
// holds, its own output does not); with `onCancelledBranch: "ignore"` it may not have run at all
// (nothing of it holds). A compensation step follows the step it offsets. Loop edges are left
// out: what the first pass guarantees is what counts.
import type { Step } from '../../definition/workflow-schema.ts';
import { BitsetTable } from './bitset.ts';
import type { WorkflowGraph } from './workflow-graph.ts';

/** How much an incoming branch of a step guarantees after it: all of it, only what ran before it, or nothing. */
export type BranchGuarantee = 'full' | 'before' | 'none';

/**
 * What a required branch of an `all` or `subset` join guarantees, by the join's policies; undefined
 * when `branch` is not a required branch of a waiting join (it then counts only on every path).
 */
export function joinBranchGuarantee(join: Step, branch: Step): BranchGuarantee | undefined {
  if (join.kind !== 'join') return undefined;
  const mode = join.config?.mode ?? 'all';
  const required = mode === 'all' ? branch.optional !== true : mode === 'subset' ? (join.config?.branches?.includes(branch.id) ?? false) : false;
  if (!required) return undefined;
  if (join.config?.onCancelledBranch === 'ignore') return 'none';
  if (join.config?.onFailedBranch === 'ignore') return 'before';
  return 'full';
}

export function guaranteedBefore(graph: WorkflowGraph): BitsetTable {
  const n = graph.size;
  const table = new BitsetTable(n, n + 1);
  const temp = n;
  const compensates = new Map<number, number[]>();
  for (let v = 0; v < n; v++) {
    const c = graph.step(v).compensation;
    const t = c === undefined ? undefined : graph.indexOf.get(c);
    if (t !== undefined && t !== v) compensates.set(t, [...(compensates.get(t) ?? []), v]);
  }
  for (const v of graph.topo) {
    const step = graph.step(v);
    const predEdges = graph.forwardPreds(v);
    const preds = [...predEdges.keys(), ...(compensates.get(v) ?? [])];
    // A partial step's output is the part done (docs/long-running.md#partial-completion).
    const withOutput = (p: number): boolean =>
      (predEdges.get(p) ?? []).every((e) => [...graph.outcomesBehind(e)].every((o) => o === 'succeeded' || o === 'rejected' || o === 'partial'));
    // Every path: some predecessor finished (for a join, at least one branch arrived).
    preds.forEach((p, k) => {
      table.copy(temp, p);
      if (withOutput(p)) table.set(temp, p);
      if (k === 0) table.copy(v, temp);
      else table.intersect(v, temp);
    });
    // A waiting join: each required branch adds what it guarantees.
    for (const p of predEdges.keys()) {
      const kind = joinBranchGuarantee(step, graph.step(p));
      if (kind === undefined || kind === 'none') continue;
      table.union(v, p);
      if (kind === 'full' && withOutput(p)) table.set(v, p);
    }
  }
  return table;
}
