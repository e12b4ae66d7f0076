// Who acts and why: every operator command records both, so each decision shows in the event
// log and the timeline with the person who made it and the reason they gave. `by` is optional as
// in the CLI; left out, the engine records its one default ($WEFT_USER, else $USER, else the OS
// user: engine/service/who-acts.ts). `reason` is optional where the CLI's --reason is (left out,
// "no reason given" is recorded), and required where the CLI requires it.
import { ActorName, NonBlankText } from './api-ids.ts';

/** Longest reason accepted; a reason is a sentence or two that ends up in the event log. */
export const MAX_REASON_LENGTH = 4000;

/** Why an operator acts, as recorded in the event's reason. */
export const Reason = NonBlankText.max(MAX_REASON_LENGTH, `a reason is at most ${MAX_REASON_LENGTH} characters`);

/** The optional `by` and `reason` of an operator command. */
export const WhoAndWhy = {
  by: ActorName.optional(),
  reason: Reason.optional(),
} as const;
