// Slots, as pure decisions on plain data: how many runs of a workflow run at once
// (limits.maxParallelRuns: further runs queue, the highest priority and then the oldest starts
// when one ends), and how many attempts of a resource run at once (limits.concurrency pools,
// shared by every run the engine schedules).
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunModel } from '../../shared/run/run-model.ts';

type RunSlotView = Pick<RunModel, 'runId' | 'state' | 'queued' | 'priority' | 'createdAt'> & { budgetWait?: RunModel['budgetWait'] } & { workflow: Pick<Workflow, 'id' | 'limits'> };

/**
 * Runs of `workflowId` running now, other than `except`: those the store lists as running,
 * corrected by the runs this engine holds in memory (their state is newer than the store's).
 *
 * @example countRunningRuns(['r1', 'r2'], [{ runId: 'r2', state: 'succeeded', ... }], 'quote', 'r3') // 1
 */
export function countRunningRuns(stored: Iterable<string>, live: Iterable<RunSlotView>, workflowId: string, except: string): number {
  const ids = new Set(stored);
  for (const m of live) {
    if (m.workflow.id !== workflowId || m.runId === except) continue;
    if (m.state === 'running' && !m.queued) ids.add(m.runId);
    else ids.delete(m.runId);
  }
  ids.delete(except);
  return ids.size;
}

/** A new run starts, or queues (with the reason) when `running` runs already use all `max` slots. */
export function admitRun(workflowId: string, max: number | undefined, running: number): { kind: 'start' } | { kind: 'queue'; reason: string } {
  if (max === undefined || running < max) return { kind: 'start' };
  return { kind: 'queue', reason: `${running} of ${max} parallel runs of "${workflowId}" are running` };
}

/**
 * The queued run of `workflowId` to start next: the highest priority, then the oldest. `view`
 * gives the run of each item (identity for plain runs).
 */
export function nextQueuedRun<R>(items: Iterable<R>, workflowId: string, view: (item: R) => RunSlotView): R | undefined {
  const queued = [...items].filter((r) => {
    const m = view(r);
    // A run waiting for a day's budget starts when that day begins, not when a slot frees.
    return m.queued && (m.budgetWait ?? null) === null && m.workflow.id === workflowId && m.state === 'waiting';
  });
  return queued.sort((a, b) => view(b).priority - view(a).priority || view(a).createdAt - view(b).createdAt)[0];
}

/** Workflows whose queued runs may start: those with a run limit of which one of `advanced` stopped running. */
export function workflowsToDequeue(advanced: Iterable<RunSlotView>): Set<string> {
  const workflows = new Set<string>();
  for (const m of advanced) {
    if (m.workflow.limits?.maxParallelRuns !== undefined && m.state !== 'running') workflows.add(m.workflow.id);
  }
  return workflows;
}

/** A concurrency pool of limits.concurrency; `W` is whatever identifies a waiting attempt. */
export interface Pool<W> {
  limit: number;
  inUse: number;
  queue: W[];
}

/** The pool of `resource`, made on first use from the workflow's limit (the first limit seen wins); none when unlimited. */
export function poolOf<W>(pools: Map<string, Pool<W>>, limits: Workflow['limits'], resource: string | undefined): Pool<W> | undefined {
  if (resource === undefined) return undefined;
  let pool = pools.get(resource);
  if (pool === undefined) {
    const limit = limits?.concurrency?.[resource];
    if (limit === undefined) return undefined;
    pool = { limit, inUse: 0, queue: [] };
    pools.set(resource, pool);
  }
  return pool;
}

/** True when an attempt may take a slot now; otherwise `waiter` queues for one (once). */
export function slotOrQueue<W>(pool: Pool<W>, waiter: W, same: (a: W, b: W) => boolean): boolean {
  if (pool.inUse < pool.limit) return true;
  if (!pool.queue.some((q) => same(q, waiter))) pool.queue.push(waiter);
  return false;
}

/** Gives a slot back; returns the waiter that may try again, if any. */
export function releaseSlot<W>(pool: Pool<W>): W | undefined {
  pool.inUse--;
  return pool.queue.shift();
}
