// `weft events RUN --follow`: polls the store, read-only, for the run's events after the last
// one printed, until the run ends. Whatever process commits them (weft run, resume, approve, an
// editor), the follower sees them within one poll; it never writes or takes the lease.
import type { RunState } from '../../shared/definition/names.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { Clock } from '../time/clock.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import type { Store } from '../store/store.ts';

/** Short enough to feel live, long enough that a follower costs the store nothing noticeable. */
export const FOLLOW_POLL_MS = 100;

/**
 * Prints the events of `runId` after seq `after`, each once, as they are committed, and returns
 * the run's state once it is terminal (succeeded, failed or cancelled). A waiting, paused or
 * needs-attention run is followed on: it has not ended.
 */
export async function followRunEvents(store: Store, runId: string, after: number, print: (event: RunEvent) => void, clock: Clock): Promise<RunState> {
  let last = after;
  for (;;) {
    // The state is read before the events: the run's row and its events are committed together,
    // so once the row says the run ended, the read that follows sees every event up to its end.
    const state = store.getRun(runId)?.state;
    for (const event of store.readEvents(runId, { after: last })) {
      print(event);
      last = event.seq;
    }
    if (state !== undefined && isTerminal(state)) return state;
    await new Promise<void>((resolve) => clock.setTimer(FOLLOW_POLL_MS, resolve));
  }
}
