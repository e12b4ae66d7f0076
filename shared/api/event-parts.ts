// Parts of the event schemas that read models repeat: what evidence covers, an attempt's error and
// meta, an edge decision. Taken from EVENT_DATA so each is defined once; shared/events/run-event.ts
// may later export them by name.
import { EVENT_DATA } from '../events/run-event.ts';
import type { z } from 'zod';

/** What a piece of evidence covers: input hash, definition version, input revision. */
export const Covers = EVENT_DATA.attempt_succeeded.shape.covers;

/** An attempt's error: a stable code and a message. */
export const ErrorInfo = EVENT_DATA.attempt_unknown.shape.error;

/** What an executor reported besides the result: provider, model, usage, latency, HTTP status. */
export const AttemptMeta = EVENT_DATA.attempt_succeeded.shape.meta.unwrap();
export type AttemptMeta = z.infer<typeof AttemptMeta>;

/** One edge's decision when its source settled: taken or not, and why. */
export const EdgeDecision = EVENT_DATA.step_settled.shape.edges.element;

/** How a step settled. */
export const SettleOutcome = EVENT_DATA.step_settled.shape.outcome;
