// The engine's half of weft migrate: the run_migrated event appended inside the run's next tick
// (one event, so the run moves in one commit or not at all), then the live run switched to the
// new definition and every step judged again under it. What to append is decided by the caller,
// in the tick, against the run as it is then (engine/evolution/migration-apply.ts).
import type { EventData } from '../../shared/events/run-event.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { RunPort } from './run-port.ts';

/** What a migration appends: the event's data and reason, or a throw (a refusal; nothing is written). */
export type MigrationDecider = (model: RunModel) => { data: EventData<'run_migrated'>; reason: string };

/** Moves run `runId` to another version of its workflow; resolves once the tick's commit is written. */
export function migrateLive(port: RunPort, runId: string, decide: MigrationDecider): Promise<void> {
  const live = port.load(runId);
  return port.enqueue(live, async () => {
    const { data, reason } = decide(live.model);
    port.emit(live, 'run_migrated', data, { reason });
    live.index = indexDefinition(live.model.workflow);
    live.runInfo = undefined;
    live.ready = live.ready.filter((id) => live.model.steps.has(id));
    for (const s of live.model.steps.values()) {
      live.dirty.add(s.id);
      if (s.state === 'ready' && !live.ready.includes(s.id)) live.ready.push(s.id);
    }
  });
}
