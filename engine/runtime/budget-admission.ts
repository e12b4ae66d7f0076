// Admission control over a workspace's daily budgets (docs/budgets.md), as a pure decision: a run
// whose workflow, or whose workspace, has spent its budget for today (UTC, engine clock) waits
// until the next day begins, or is refused when the policy says `whenOver: "refuse"`.
import type { Budgets } from '../../shared/policy/policy-schema.ts';
import { formatCost } from '../../shared/cost/run-cost.ts';
import type { DaySpent } from '../store/day-spend.ts';
import { DAY_MS } from '../store/day-spend.ts';

export type BudgetAdmission =
  | { kind: 'start' }
  /** Wait until `until` (the next UTC day's start), then ask again. */
  | { kind: 'wait'; reason: string; until: number }
  | { kind: 'refuse'; reason: string };

/** The start of the UTC day after the one `now` is in. */
export function nextDayStart(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/** The daily budget of workflow `workflowId`: its own entry of perWorkflowPerDay, else "*". */
function workflowDayBudget(budgets: Budgets, workflowId: string): { amount: number; key: string } | undefined {
  const per = budgets.perWorkflowPerDay;
  if (per === undefined) return undefined;
  const own = per[workflowId];
  if (own !== undefined) return { amount: own, key: workflowId };
  const any = per['*'];
  return any === undefined ? undefined : { amount: any, key: '*' };
}

/** True when the budgets have a daily limit at all (else no spend needs reading). */
export function hasDailyBudget(budgets: Budgets | undefined): budgets is Budgets {
  return budgets !== undefined && (budgets.perWorkflowPerDay !== undefined || budgets.perWorkspacePerDay !== undefined);
}

/**
 * Whether a run of `workflowId` may start now, given what was spent today. A run starts while
 * today's spend is below every daily budget that applies; one that has been reached holds it.
 *
 * @example
 * admitWithinBudget({ perWorkspacePerDay: 20 }, 'quote', { workflow: 3, workspace: 20 }, now)
 * // { kind: 'wait', reason: "today's spend of the workspace (20 USD) has reached …", until: <next midnight> }
 */
export function admitWithinBudget(budgets: Budgets | undefined, workflowId: string, spent: DaySpent, now: number): BudgetAdmission {
  if (!hasDailyBudget(budgets)) return { kind: 'start' };
  const wf = workflowDayBudget(budgets, workflowId);
  const workflowOver = wf !== undefined && spent.workflow >= wf.amount;
  if (!workflowOver && (budgets.perWorkspacePerDay === undefined || spent.workspace < budgets.perWorkspacePerDay)) return { kind: 'start' };
  const currency = budgets.currency ?? 'USD';
  const money = (n: number): string => formatCost(n, currency);
  const day = new Date(now).toISOString().slice(0, 10);
  let over: string | undefined;
  if (wf !== undefined && workflowOver) {
    over = `runs of "${workflowId}" have spent ${money(spent.workflow)} on ${day} (UTC), all of the policy's budgets.perWorkflowPerDay["${wf.key}"] (${money(wf.amount)})`;
  } else if (budgets.perWorkspacePerDay !== undefined && spent.workspace >= budgets.perWorkspacePerDay) {
    over = `the workspace has spent ${money(spent.workspace)} on ${day} (UTC), all of the policy's budgets.perWorkspacePerDay (${money(budgets.perWorkspacePerDay)})`;
  }
  if (over === undefined) return { kind: 'start' };
  if (budgets.whenOver === 'refuse') return { kind: 'refuse', reason: `${over}; the policy's budgets.whenOver is "refuse", so no run starts until the next day (UTC)` };
  const until = nextDayStart(now);
  return { kind: 'wait', reason: `waiting for budget: ${over}; the run starts when the next day begins (${new Date(until).toISOString()})`, until };
}
