// Runs with a cost, written through the store as the engine writes them (created, one attempt per
// cost, each its own commit, then finished), for the tests of where a finished run's cost per day
// is kept (cost-bucket.test.ts on SQLite, pg-cost-bucket.test.ts on PostgreSQL).
import type { Store } from '../../engine/store/store.ts';

/** A UTC day number (days since 1970-01-01) the runs spend on, and its length. */
export const DAY = 20_000;
export const DAY_MS = 86_400_000;

export interface Spent {
  /** When the attempt ended (ms since the epoch: `on(DAY)`). */
  at: number;
  amount: number;
  currency?: string;
}

/** Run `runId` of `workflowId`: created, one attempt per entry of `spent` (each its own commit), then finished in `state` at the last attempt's time. */
export function run(store: Store, runId: string, spent: readonly Spent[], state: 'succeeded' | 'failed' = 'succeeded', workflowId = 'alpha'): void {
  const first = spent[0]?.at ?? 0;
  store.newRun(runId);
  store.append({ runId, type: 'run_created', at: first, data: { workflowId, version: 1, definitionHash: 'h', workspaceDir: '.', input: {} } });
  store.setRunProjection({ id: runId, workflowId, version: 1, state: 'running', inputRevision: 1, createdAt: first, updatedAt: first });
  store.flush();
  for (const [k, s] of spent.entries()) {
    const attempt = k + 1;
    store.append({ runId, type: 'attempt_started', at: s.at, step: 'call', activation: 1, attempt, data: { inputHash: 'i', input: {}, variant: null, effect: 'external' } });
    store.append({
      runId, type: 'attempt_succeeded', at: s.at, step: 'call', activation: 1, attempt,
      data: { output: {}, evidenceId: `e${attempt}`, covers: { inputHash: 'i', definitionVersion: 1, inputRevision: 0 }, meta: { cost: { amount: s.amount, currency: s.currency ?? 'USD', basis: 'declared' } } },
    });
    store.flush();
  }
  moveTo(store, runId, state, spent.at(-1)?.at ?? first, workflowId);
}

/** The run's state changed to `state` at `at`, with its projection, in one commit (an operator's retry sends a finished run back to running). */
export function moveTo(store: Store, runId: string, state: 'running' | 'succeeded' | 'failed', at: number, workflowId = 'alpha'): void {
  store.append({ runId, type: 'run_state_changed', at, data: { state } });
  store.setRunProjection({ id: runId, workflowId, version: 1, state, inputRevision: 1, createdAt: at, updatedAt: at });
  store.flush();
}

/** A time `ms` into UTC day `day`. */
export const on = (day: number, ms = 1_000): number => day * DAY_MS + ms;

