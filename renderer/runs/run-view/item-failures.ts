// How many of a map (or subworkflow) step's child runs ended other than succeeded. A map with
// `onItemFailure: "continue"` settles succeeded however many items failed, so its state alone
// hides them; this is what the node's badge and the step detail say instead.
import type { RunDetail } from '../../../shared/api/run-detail.ts';

export interface ItemFailures {
  /** Items of the step's latest pass, in index order. */
  total: number;
  /** Those whose child run ended other than succeeded (failed, cancelled), with the run to open. */
  failed: { index: number; runId: string; state: string }[];
}

type Children = RunDetail['children'];

/**
 * The step's item failures, by step id, for steps with at least one failed item. The child list
 * holds every child run the run started, oldest first; a retry or a loop pass starts an item
 * again under the same index, so the last run per index is the item's current one.
 *
 * @example
 * itemFailures(detail.children).check_each; // { total: 3, failed: [{ index: 1, runId: 'r-…', state: 'failed' }] }
 */
export function itemFailures(children: Children): Record<string, ItemFailures> {
  const byStep = new Map<string, Map<number, Children[number]>>();
  for (const c of children) {
    const items = byStep.get(c.stepId) ?? new Map<number, Children[number]>();
    items.set(c.index, c);
    byStep.set(c.stepId, items);
  }
  const out: Record<string, ItemFailures> = {};
  for (const [stepId, items] of byStep) {
    const failed = [...items.values()]
      .filter((c) => c.state !== null && c.state !== 'succeeded')
      .sort((a, b) => a.index - b.index)
      .map((c) => ({ index: c.index, runId: c.runId, state: c.state ?? '' }));
    if (failed.length > 0) out[stepId] = { total: items.size, failed };
  }
  return out;
}

/** "1 of 3 items failed": a cancelled item counts too, since it gave no result either. */
export function itemFailuresText(f: ItemFailures): string {
  return `${f.failed.length} of ${f.total} item${f.total === 1 ? '' : 's'} failed`;
}
