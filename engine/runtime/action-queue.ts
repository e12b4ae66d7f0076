// Operator actions and deliveries wait for the run's next tick, so they never interleave with
// one; their callers hear of them once that tick's commit is written, or hear the store failure
// that stopped the engine instead of waiting forever.
import type { LiveRun } from './live-run.ts';

export class ActionQueue {
  /** Rejections of actions still queued, so a store failure ends their callers' waits. */
  private readonly pending = new Set<(error: unknown) => void>();
  /** Actions applied in this tick: their callers hear of them once the tick's commit is written. */
  private applied: (() => void)[] = [];

  /** Queues `act` on the run (the caller marks it dirty); resolves once the tick that applies it is committed. */
  enqueue(live: LiveRun, act: () => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.add(reject);
      const done = (): void => {
        this.pending.delete(reject);
        resolve();
      };
      live.actions.push(() => act().then(
        () => void this.applied.push(done),
        (e: unknown) => {
          this.pending.delete(reject);
          reject(e);
        },
      ));
    });
  }

  /** The tick's commit is written: the callers of the actions it applied hear so. */
  committed(): void {
    const applied = this.applied;
    this.applied = [];
    for (const done of applied) done();
  }

  /** The engine stopped for good: every caller still waiting hears why. */
  failAll(error: unknown): void {
    for (const reject of this.pending) reject(error);
    this.pending.clear();
  }
}
