// Pause, resume and cancel a whole run (`weft pause|resume|cancel RUN`). The run is addressed by
// the route (`POST /api/runs/:id/actions`) or the CLI's positional, never in the body.
import { z } from 'zod';
import { WhoAndWhy } from './who-and-why.ts';

/** Nothing new starts until the run is resumed; attempts already running finish. */
export const PauseCommand = z.strictObject({ action: z.literal('pause'), ...WhoAndWhy });
export type PauseCommand = z.infer<typeof PauseCommand>;

/** A paused run continues. */
export const ResumeCommand = z.strictObject({ action: z.literal('resume'), ...WhoAndWhy });
export type ResumeCommand = z.infer<typeof ResumeCommand>;

/** A debug run paused at a breakpoint goes on; that activation starts without stopping there again. */
export const ContinueCommand = z.strictObject({ action: z.literal('continue'), ...WhoAndWhy });
export type ContinueCommand = z.infer<typeof ContinueCommand>;

/** As continue, then the run pauses again before the next step that starts. */
export const StepCommand = z.strictObject({ action: z.literal('step'), ...WhoAndWhy });
export type StepCommand = z.infer<typeof StepCommand>;

/** Running attempts are aborted, waiting steps cancelled, and the run ends cancelled. */
export const CancelCommand = z.strictObject({ action: z.literal('cancel'), ...WhoAndWhy });
export type CancelCommand = z.infer<typeof CancelCommand>;
