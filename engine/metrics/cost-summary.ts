// The cost of every workflow of a store, and of each UTC day across them (`weft stats` without a
// workflow, docs/metrics.md "Cost"): each workflow's own report's cost (stats.ts), so a workflow's
// line is what `weft stats WORKFLOW` says; days are summed with sumCost.
import type { CostSummary, WorkflowCostLine } from '../../shared/api/cost-stats.ts';
import { sumCost } from '../../shared/cost/attempt-cost.ts';
import type { Store } from '../store/store.ts';
import { workflowReport } from './stats.ts';

/** Every workflow's cost as of `asOf`, the most expensive first, and the days across them. */
export function costSummary(store: Store, asOf: number): CostSummary {
  const workflows: WorkflowCostLine[] = [...store.workflowVersions().keys()].map((workflowId) => {
    const { stats } = workflowReport(store, workflowId, { asOf });
    return { workflowId, runs: stats.runs, cost: stats.cost };
  });
  workflows.sort((a, b) => b.cost.total - a.cost.total || (a.workflowId < b.workflowId ? -1 : 1));
  const days = new Map<string, CostSummary['days'][number]>();
  for (const w of workflows) {
    for (const d of w.cost.days) {
      let x = days.get(d.day);
      if (x === undefined) days.set(d.day, (x = { day: d.day, total: 0, workflows: {} }));
      x.total = sumCost([x.total, d.total]);
      x.workflows[w.workflowId] = d.total;
    }
  }
  return {
    asOf: new Date(asOf).toISOString(),
    total: sumCost(workflows.map((w) => w.cost.total)),
    currency: workflows.find((w) => w.cost.total > 0)?.cost.currency ?? 'USD',
    workflows,
    days: [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
  };
}
