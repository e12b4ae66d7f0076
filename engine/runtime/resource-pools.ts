// The concurrency pools of limits.concurrency an engine's attempts take slots of (run-slots.ts
// decides; this holds them): a step whose kind runs outside the engine takes a slot of its
// resource's pool before its attempt starts, and gives it back at the moment the attempt's end is
// logged, so the log never shows more attempts of a resource at once than its limit. Sharing a
// PostgreSQL store with other engines, the slot is also the store's (SharedStore.takeSlot), so the
// limit holds across every worker; a slot freed on another engine makes queued attempts try again
// (retryQueued).
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { LiveRun, SharedSlot, SharedStore } from './live-run.ts';
import type { RunPort } from './run-port.ts';
import { poolOf, releaseSlot, slotOrQueue, type Pool } from './run-slots.ts';

type Waiter = { live: LiveRun; stepId: string };
const sameWaiter = (a: Waiter, b: Waiter): boolean => a.live === b.live && a.stepId === b.stepId;

export type ResourcePool = Pool<Waiter>;

export class ResourcePools {
  private readonly pools = new Map<string, ResourcePool>();

  constructor(private readonly port: Pick<RunPort, 'markDirty'>, private readonly shared: SharedStore | undefined) {}

  /** The pool of `resource` under the workflow's limits; none when unlimited. */
  gate(limits: Workflow['limits'], resource: string | undefined): ResourcePool | undefined {
    return poolOf(this.pools, limits, resource);
  }

  /** The step waits for a slot of the pool (once). */
  queue(pool: ResourcePool, live: LiveRun, stepId: string): void {
    slotOrQueue(pool, { live, stepId }, sameWaiter);
  }

  /** The step's attempt holds a slot of the pool until its end is logged (release). */
  hold(pool: ResourcePool, live: LiveRun, stepId: string): void {
    pool.inUse++;
    live.holding.add(stepId);
  }

  /**
   * The step's slot among every engine sharing the store: true when taken (and held here, so every
   * end of the attempt frees it), undefined when the pool is full there (the step queues), false
   * when the store is this engine's alone (the pool above is the only one).
   */
  takeShared(pool: ResourcePool, live: LiveRun, stepId: string, step: Step): boolean | undefined {
    if (this.shared?.takeSlot === undefined || step.resource === undefined) return false;
    if (!this.shared.takeSlot(slotOf(live, step.resource, stepId), pool.limit)) {
      // Full among the engines, though maybe not here: the step waits in this pool's queue all the same.
      const waiter = { live, stepId };
      if (!pool.queue.some((q) => sameWaiter(q, waiter))) pool.queue.push(waiter);
      return undefined;
    }
    this.hold(pool, live, stepId);
    return true;
  }

  /** Frees the slot a step's attempt held (its end is being logged) and wakes the next waiter. */
  release(live: LiveRun, step: Step): void {
    if (!live.holding.delete(step.id)) return;
    const pool = poolOf(this.pools, live.model.workflow.limits, step.resource);
    if (pool === undefined) return;
    if (step.resource !== undefined) this.shared?.releaseSlot?.(slotOf(live, step.resource, step.id));
    const next = releaseSlot(pool);
    if (next !== undefined) this.wake(next);
  }

  /** Every queued attempt tries for its slot again (one was freed on another engine sharing the store). */
  retryQueued(): void {
    for (const pool of this.pools.values()) for (const waiter of pool.queue.splice(0)) this.wake(waiter);
  }

  /** A queued attempt may try again: its step is ready again (or due, for a retry). */
  private wake(next: Waiter): void {
    const s = next.live.model.steps.get(next.stepId);
    if (s?.state === 'ready') next.live.ready.push(next.stepId);
    else if (s?.state === 'retry_wait') next.live.due.push(next.stepId);
    this.port.markDirty(next.live);
  }
}

function slotOf(live: LiveRun, pool: string, stepId: string): SharedSlot {
  return { pool, runId: live.model.runId, stepId, activation: live.model.steps.get(stepId)?.activation ?? 1 };
}
