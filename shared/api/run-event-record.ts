// A stored event as a zod discriminated union on `type`, its `data` checked by the schema of that
// type (shared/events/run-event.ts, EVENT_DATA). The API sends events in this shape, and the
// renderer folds them with the engine's own code, so `at` stays in epoch ms as the fold has it.
// `weft events --json` prints the same events without `runId` and with `at` as ISO text
// (EventLogJson below). RunEvent in shared/events is the same union written as a TypeScript
// type (checked at the end of this file), so the fold narrows on `type` with no cast.
import { z } from 'zod';
import { EVENT_DATA, type EventType, type RunEvent } from '../events/run-event.ts';

const position = {
  seq: z.number().int().positive(),
  step: z.string().nullable(),
  activation: z.number().int().nullable(),
  attempt: z.number().int().nullable(),
  reason: z.string().nullable(),
};

/** An envelope shape and an event type → the strict object for that type. */
const typed =
  <S extends z.ZodRawShape>(envelope: S) =>
  <T extends EventType>(type: T) =>
    z.strictObject({ ...envelope, type: z.literal(type), data: EVENT_DATA[type] });

/** Every event type, as one union; listed by hand so the inferred type is a true discriminated union. */
const union = <S extends z.ZodRawShape>(envelope: S) => {
  const t = typed(envelope);
  return z.discriminatedUnion('type', [
    t('run_created'), t('run_input_revised'), t('run_state_changed'), t('engine_resumed'), t('step_activated'),
    t('operator_action'), t('run_failing'), t('compensation_started'), t('step_compensated'), t('run_queued'),
    t('child_started'), t('child_finished'), t('run_dequeued'), t('attempt_started'), t('attempt_succeeded'),
    t('attempt_failed'), t('attempt_unknown'), t('attempt_partial'), t('retry_scheduled'), t('timer_set'), t('timer_fired'),
    t('task_opened'), t('task_reassigned'), t('task_decided'), t('event_awaited'), t('event_received'),
    t('event_duplicate'), t('deadline_passed'), t('evidence_reused'), t('evidence_imported'), t('unknown_imported'),
    t('revision_held'), t('outcome_carried'), t('step_settled'), t('step_escalated'), t('step_revalidated'), t('policy_escalated'),
    t('path_reopened'), t('step_passed_over'), t('breakpoint_hit'), t('debug_resumed'), t('run_migrated'),
    t('note_added'),
    t('artifact_opened'),
  ]);
};

/**
 * One event of a run's log, as the engine stores and folds it (`at` in epoch ms).
 *
 * @example
 * const e = RunEventRecord.parse(row);
 * if (e.type === 'step_settled') e.data.edges; // typed by the discriminant
 */
export const RunEventRecord = union({ runId: z.string().min(1), ...position, at: z.number() });
export type RunEventRecord = z.infer<typeof RunEventRecord>;

/** One line of `weft events RUN --json`: the event without `runId`, `at` as ISO 8601 text. */
export const EventLogRow = union({ ...position, at: z.iso.datetime() });
export type EventLogRow = z.infer<typeof EventLogRow>;

/** What `weft events RUN --json` prints. */
export const EventLogJson = z.strictObject({ events: z.array(EventLogRow) });
export type EventLogJson = z.infer<typeof EventLogJson>;

// A type added to EVENT_DATA but not to the union above fails the type check here.
type Unlisted = Exclude<EventType, RunEventRecord['type']>;
const _everyEventTypeListed: [Unlisted] extends [never] ? true : Unlisted = true;

// RunEvent (what the store returns and the fold reads) and RunEventRecord (what the API parses)
// are one type: a difference in either direction fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _runEventIsTheRecord: Same<RunEvent, RunEventRecord> = true;
