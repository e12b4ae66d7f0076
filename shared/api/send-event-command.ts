// An event from outside for the run that waits (or will wait) for it (`POST /api/events`,
// `weft send NAME --key K`). Events are deduplicated by id.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import { MAX_ID_LENGTH, NonBlankText } from './api-ids.ts';
import { JsonValue } from './json-value.ts';

const Bounded = NonBlankText.max(MAX_ID_LENGTH, `at most ${MAX_ID_LENGTH} characters`);

/**
 * `name` and `key` pick the waiting event step; `id` (default a new UUID) makes a resend a
 * recorded duplicate instead of a second delivery; `data` becomes the step's output.data.
 *
 * @example
 * SendEventCommand.parse({ name: 'payment.received', key: 'A17', data: { amount: 12 } });
 */
export const SendEventCommand = z.strictObject({
  name: Bounded,
  key: Bounded,
  id: Bounded.optional(),
  data: JsonValue.optional(),
});
export type SendEventCommand = z.infer<typeof SendEventCommand>;

/** What became of a sent event, as `weft send --json` prints it. */
export const SendEventResult = z.strictObject({
  id: z.string(),
  status: z.enum(['delivered', 'kept', 'duplicate']),
  runId: z.string().optional(),
  state: z.enum(RUN_STATES).optional(),
});
export type SendEventResult = z.infer<typeof SendEventResult>;
