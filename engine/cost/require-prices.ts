// A run that will bill (agent steps, or steps that declare a cost per call) is refused at start
// while its workspace's weft.prices.json cannot be used, so no run goes unpriced without a word;
// a run that bills nothing starts whatever the file holds (docs/cost.md "A broken price table").
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { ServiceError } from '../service/service-error.ts';
import { PriceTableError, readPriceTable } from './load-prices.ts';

/** The steps of `workflow` whose attempts may bill: agents, and steps with a declared cost. */
export function billingSteps(workflow: Workflow): string[] {
  return workflow.steps.filter((s) => s.kind === 'agent' || s.cost !== undefined).map((s) => s.id);
}

/**
 * Throws ServiceError `refused` when `workflow` bills and `workspaceDir`'s price table is broken,
 * naming the file, the JSON path and the fix.
 *
 * @example
 * requirePrices(workflow, '/ws'); // throws: workflow "ask" bills (steps draft) but /ws/weft.prices.json at $.prices[0].from: ...
 */
export function requirePrices(workflow: Workflow, workspaceDir: string): void {
  const steps = billingSteps(workflow);
  if (steps.length === 0) return;
  try {
    readPriceTable(workspaceDir);
  } catch (e) {
    if (!(e instanceof PriceTableError)) throw e;
    throw new ServiceError('refused', `workflow "${workflow.id}" bills (steps ${steps.join(', ')}) and its price table cannot be used, so it was not started: ${e.message}. Fix the file, or remove it to run without token prices`);
  }
}
