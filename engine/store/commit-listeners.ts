// Who hears of committed events: the store calls publish() after a commit returns, never before,
// so a listener that reads the database (from any connection) finds the event there. Listeners
// run in the engine's tick; one that throws is reported to its own error handler and skipped, so
// a bug in a subscriber (a UI bridge, a log shipper) can never stop the engine or starve the
// other listeners.
import type { RunEvent } from '../../shared/events/run-event.ts';

/** An event as committed: its place in the store's global, commit-ordered log, and the event. */
export interface CommittedEvent {
  /** 1, 2, 3…: commit order across every run of the store, with no hole (migration 7). */
  cursor: number;
  event: RunEvent;
}

export type CommitListener = (committed: CommittedEvent) => void;

interface Subscription {
  listener: CommitListener;
  onError: ((error: unknown) => void) | undefined;
  live: boolean;
}

export class CommitListeners {
  private subscriptions: readonly Subscription[] = [];

  get size(): number {
    return this.subscriptions.length;
  }

  add(listener: CommitListener, onError?: (error: unknown) => void): () => void {
    const subscription: Subscription = { listener, onError, live: true };
    // Copy on write, so that a listener may unsubscribe (itself or another) during a delivery;
    // `live` stops the rest of that delivery from reaching it.
    this.subscriptions = [...this.subscriptions, subscription];
    return () => {
      subscription.live = false;
      this.subscriptions = this.subscriptions.filter((s) => s !== subscription);
    };
  }

  publish(events: readonly CommittedEvent[]): void {
    const subscriptions = this.subscriptions;
    for (const committed of events) {
      for (const s of subscriptions) {
        if (!s.live) continue;
        try {
          s.listener(committed);
        } catch (error) {
          try {
            s.onError?.(error);
          } catch {
            // An error handler that throws has nowhere left to report to; the engine goes on.
          }
        }
      }
    }
  }
}
