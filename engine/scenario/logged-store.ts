// A store that remembers the order events were appended in, across runs: each run's log has its
// own sequence, and a scenario with several runs needs one order for all of them (which run got
// a slot first, how many held one at once, the event log `weft test --events` prints).
import type { EventType, RunEvent } from '../../shared/events/run-event.ts';
import { Store, type NewEvent } from '../store/store.ts';
import type { Db } from '../store/db.ts';

/** Where each appended event sits in its run's log, in append order (shared by a store and its restarted successor). */
export type AppendOrder = { runId: string; seq: number }[];

export class LoggedStore extends Store {
  constructor(
    db: Db,
    readonly order: AppendOrder,
  ) {
    super(db);
  }

  override append<T extends EventType>(e: NewEvent<T>): RunEvent<T> {
    const event = super.append(e);
    this.order.push({ runId: event.runId, seq: event.seq });
    return event;
  }
}

/** Every run's stored events in append order (an event appended but never committed, as by a crashed engine, is not there). */
export function eventsInOrder(store: Store, order: AppendOrder): RunEvent[] {
  const logs = new Map<string, Map<number, RunEvent>>();
  const out: RunEvent[] = [];
  for (const { runId, seq } of order) {
    let log = logs.get(runId);
    if (log === undefined) {
      log = new Map(store.readEvents(runId).map((e) => [e.seq, e]));
      logs.set(runId, log);
    }
    const e = log.get(seq);
    if (e !== undefined) out.push(e);
  }
  return out;
}
