// The names an API request uses to address things: runs, steps, workflows, people. Bounded in
// length, so a 50,000-character id is refused at the boundary instead of reaching SQLite.
import { z } from 'zod';
import { STEP_ID_PATTERN, WORKFLOW_ID_PATTERN } from '../definition/names.ts';

/** Longest id or name accepted in a request; real ones are far shorter. */
export const MAX_ID_LENGTH = 200;

/** A run id, or a unique prefix of one (as `weft inspect` takes). */
export const RunId = z
  .string()
  .min(1, 'give a run id (as `weft runs` lists them)')
  .max(MAX_ID_LENGTH, `a run id is at most ${MAX_ID_LENGTH} characters`);

/** A step id of the run's definition. */
export const StepId = z
  .string()
  .max(MAX_ID_LENGTH, `a step id is at most ${MAX_ID_LENGTH} characters`)
  .regex(STEP_ID_PATTERN, 'a step id is a name such as "verify_payment" (letters, digits, _; not starting with a digit)');

/** A workflow id: the slug in its file, such as "order-payment". */
export const WorkflowId = z
  .string()
  .max(MAX_ID_LENGTH, `a workflow id is at most ${MAX_ID_LENGTH} characters`)
  .regex(WORKFLOW_ID_PATTERN, 'a workflow id is a slug such as "order-payment"');

/** Text that must say something: not empty and not only spaces. */
export const NonBlankText = z.string().regex(/\S/, 'must not be empty or only spaces');

/** A person or program acting on a run, as `--by` names it. */
export const ActorName = NonBlankText.max(MAX_ID_LENGTH, `a name is at most ${MAX_ID_LENGTH} characters`);
