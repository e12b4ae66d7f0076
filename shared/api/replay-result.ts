// What a replay answers (weft replay --json, POST /api/runs/:id/replay, POST /api/replays;
// docs/evolution.md "Replay"): the replay run's id, the run it replays, the definition it ran on,
// a verdict, the step that stopped it for want of a recording, and the comparison of the two runs
// (shared/api/run-comparison.ts, as weft compare gives it). A batch answers one row per run and
// the counts. Objects are not strict: fields may be added.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import type { ReplayScript as FullScript } from '../scenario/replay-script.ts';
import { RunComparison } from './run-comparison.ts';
import { REPLAY_VERDICTS } from './replay-verdicts.ts';

export { REPLAY_VERDICTS, type ReplayVerdict } from './replay-verdicts.ts';

/** The definition a replay ran on: a stored version, or a file (or a draft sent by the editor), with its own hash. */
export const ReplayAgainstInfo = z.object({
  workflowId: z.string(),
  version: z.number().int().optional(),
  file: z.string().optional(),
  definitionHash: z.string(),
});
export type ReplayAgainstInfo = z.infer<typeof ReplayAgainstInfo>;

/** The call that had no recording and stopped the replay. */
export const NeedsRecordingInfo = z.object({
  stepId: z.string(),
  reason: z.enum(['new step', 'input changed', 'more attempts than recorded', 'a decision of a person']),
  /** For a changed input: the first JSON path where it differs from the recorded one. */
  path: z.string().optional(),
  why: z.string(),
});
export type NeedsRecordingInfo = z.infer<typeof NeedsRecordingInfo>;

export const ReplayResult = z.object({
  replayRunId: z.string(),
  sourceRunId: z.string(),
  against: ReplayAgainstInfo,
  verdict: z.enum(REPLAY_VERDICTS),
  needsRecording: NeedsRecordingInfo.optional(),
  sourceState: z.enum(RUN_STATES),
  replayState: z.enum(RUN_STATES),
  comparison: RunComparison,
});
export type ReplayResult = z.infer<typeof ReplayResult>;

/** One run of a batch replay. */
export const ReplayRow = z.object({
  sourceRunId: z.string(),
  replayRunId: z.string(),
  sourceState: z.enum(RUN_STATES),
  replayState: z.enum(RUN_STATES),
  verdict: z.enum(REPLAY_VERDICTS),
  /** The summary's finer group: `still failing at the same step` / `still failing differently` split `same` and `changed` runs that did not succeed. */
  group: z.string(),
  /** The source's failing step, if it did not succeed. */
  failingStep: z.string().nullable(),
  /** The first difference in words, or the step that needs a recording; null when the same. */
  note: z.string().nullable(),
});
export type ReplayRow = z.infer<typeof ReplayRow>;

const Count = z.number().int().nonnegative();

export const ReplayBatchResult = z.object({
  against: ReplayAgainstInfo,
  rows: z.array(ReplayRow),
  /** How many runs got each verdict. */
  counts: z.object({ same: Count, fixed: Count, changed: Count, regressed: Count, incomplete: Count }),
  /** The summary line, such as "31 fixed, 12 still failing at the same step, 5 changed, 2 incomplete". */
  summary: z.string(),
});
export type ReplayBatchResult = z.infer<typeof ReplayBatchResult>;

/**
 * The `script` of a request: scripted outcomes by step id. Checked here for its shape only (the
 * app's bundle leaves JSONata out); the engine parses it with shared/scenario/replay-script.ts,
 * conditions included, before it replays.
 */
export const ReplayScript = z.record(z.string(), z.array(z.custom<FullScript[string][number]>((v) => typeof v === 'object' && v !== null, 'a scripted outcome: an object')).min(1));
export type ReplayScript = FullScript;

/** Which runs a batch replays: the filters of `weft runs`, with the failing step and a limit. */
export const ReplayFilter = z.strictObject({
  workflow: z.string().min(1),
  state: z.enum(RUN_STATES).optional(),
  /** Only runs whose failing step is this one. */
  failingStep: z.string().min(1).optional(),
  /** At most this many runs, newest first (default 50, at most 500). */
  limit: z.number().int().min(1).max(500).optional(),
});
export type ReplayFilter = z.infer<typeof ReplayFilter>;

/** The definition to replay on, as a request names it: a stored version, a workspace file, or a definition (the editor's unsaved draft). */
export const ReplayAgainstRequest = z.union([
  z.strictObject({ workflowId: z.string().min(1), version: z.number().int().positive() }),
  z.strictObject({ file: z.string().min(1) }),
  z.strictObject({
    definition: z.unknown().refine((v) => v !== undefined, 'a workflow definition (the draft\'s content)'),
    /** How the result names it (`against.file`): the file a terminal read it from; default "(draft)". */
    name: z.string().min(1).max(500).optional(),
  }),
]);
export type ReplayAgainstRequest = z.infer<typeof ReplayAgainstRequest>;

/** `POST /api/runs/:id/replay`: replay the run on `against`; `script` answers calls with no recording. */
export const ReplayRequest = z.strictObject({ against: ReplayAgainstRequest, script: ReplayScript.optional() });
export type ReplayRequest = z.infer<typeof ReplayRequest>;

/** `POST /api/replays`: replay the runs `filter` selects on `against`. */
export const ReplayBatchRequest = z.strictObject({ filter: ReplayFilter, against: ReplayAgainstRequest, script: ReplayScript.optional() });
export type ReplayBatchRequest = z.infer<typeof ReplayBatchRequest>;
