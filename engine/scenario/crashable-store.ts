// A store that dies like a killed process: once the commit holding the named event is written,
// it calls `onCrash` (which closes the engine, so nothing launched in that tick starts) and
// drops every later write. A new Store on the same database then plays the restarted engine.
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { NewEvent } from '../store/store.ts';
import type { Db } from '../store/db.ts';
import type { EventType } from '../../shared/events/run-event.ts';
import { LoggedStore, type AppendOrder } from './logged-store.ts';

export interface CrashPoint {
  afterEvent: string;
  step?: string | undefined;
  nth?: number | undefined;
}

export class CrashableStore extends LoggedStore {
  private hits = 0;
  private armed = false;
  crashed = false;

  constructor(
    db: Db,
    order: AppendOrder,
    readonly crashPoint: CrashPoint,
    private readonly onCrash: () => void,
  ) {
    super(db, order);
  }

  override append<T extends EventType>(e: NewEvent<T>): RunEvent<T> {
    if (this.crashed) {
      // The process is gone: the event is never written (the dead engine may still fold it).
      return { runId: e.runId, seq: -1, at: e.at, type: e.type, step: e.step ?? null, activation: e.activation ?? null, attempt: e.attempt ?? null, data: e.data, reason: e.reason ?? null };
    }
    const event = super.append(e);
    if (event.type === this.crashPoint.afterEvent && (this.crashPoint.step === undefined || event.step === this.crashPoint.step)) {
      this.hits += 1;
      if (this.hits >= (this.crashPoint.nth ?? 1)) this.armed = true;
    }
    return event;
  }

  override flush(durable = false): void {
    if (this.crashed) return;
    super.flush(durable);
    if (this.armed) {
      this.crashed = true;
      this.onCrash();
    }
  }
}
