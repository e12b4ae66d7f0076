// For each step, the steps that have certainly finished *with an output* before it starts, on
// every path. A predecessor counts only when every edge from it into the step follows outcomes
// that carry an output (`succeeded`, or `rejected`, whose output holds the reason): a step reached
// on `unknown`, `failed` or `expired` must not read an output that may not exist (an `exhausted`
// edge carries the outcomes of the loop edges it stands in for). They combine by
// intersection, except after `all` and `subset` joins, which wait for
// every (named, non-optional) branch and so guarantee the union. A compensation step follows the
// step it offsets. Loop edges are left out: what the first pass guarantees is what counts.
import { BitsetTable } from './bitset.ts';
import type { WorkflowGraph } from './workflow-graph.ts';

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
    const withOutput = (p: number): boolean =>
      (predEdges.get(p) ?? []).every((e) => [...graph.outcomesBehind(e)].every((o) => o === 'succeeded' || o === 'rejected'));
    const join = step.kind === 'join' ? (step.config?.mode ?? 'all') : undefined;
    const required = (p: number): boolean => {
      if (join === 'all') return graph.step(p).optional !== true;
      if (join === 'subset') return (step.kind === 'join' && step.config?.branches?.includes(graph.step(p).id)) ?? false;
      return false;
    };
    const unionPreds = join === 'all' || join === 'subset' ? preds.filter(required) : [];
    const combine = unionPreds.length > 0 ? unionPreds : preds;
    combine.forEach((p, k) => {
      table.copy(temp, p);
      if (withOutput(p)) table.set(temp, p);
      if (k === 0) table.copy(v, temp);
      else if (unionPreds.length > 0) table.union(v, temp);
      else table.intersect(v, temp);
    });
  }
  return table;
}
