// Parts of the event schemas that read models repeat: what evidence covers, an attempt's error, an
// edge decision. Taken from EVENT_DATA so each is defined once; shared/events/run-event.ts may later
// export them by name. (AttemptMeta has its own file: shared/events/attempt-meta.ts.)
import { EVENT_DATA } from '../events/run-event.ts';

/** What a piece of evidence covers: input hash, definition version, input revision. */
export const Covers = EVENT_DATA.attempt_succeeded.shape.covers;

/** An attempt's error: a stable code and a message. */
export const ErrorInfo = EVENT_DATA.attempt_unknown.shape.error;

/** One edge's decision when its source settled: taken or not, and why. */
export const EdgeDecision = EVENT_DATA.step_settled.shape.edges.element;

/** How a step settled. */
export const SettleOutcome = EVENT_DATA.step_settled.shape.outcome;
