// Two runs side by side: what `weft compare A B --json` prints and `GET /api/compare?a=&b=` answers.
// shared/run/compare-runs.ts computes it; docs/compare.md gives the rules. The first fields
// (`runs`, `firstDifference` {stepId, kind, paths?}, `steps` [{id, a, b}]) are the contract of
// issue 13, kept exactly; the others were added beside them and more may be, so the objects are
// not strict: an older app ignores a field it does not know.
import { z } from 'zod';
import { RUN_STATES, STEP_STATES } from '../definition/names.ts';
import { ErrorInfo, SettleOutcome } from './event-parts.ts';
import { RunId } from './api-ids.ts';
import { JsonValue } from './json-value.ts';
import { WorkflowDiff } from '../definition/workflow-diff-schema.ts';

/**
 * `GET /api/compare` sends a value (a side's input or output, a field's value) over this many bytes
 * of JSON as an ElidedValue stub: the view shows field diffs, not whole values, and opens a stub
 * by its path.
 */
export const COMPARE_VALUE_LIMIT = 4 * 1024;

/** `GET /api/compare` lists at most this many differing fields per list (the totals count them all). */
export const COMPARE_FIELD_LIMIT = 50;

/** What the first difference is about, in the order they are looked for at a step. */
export const DIFFERENCE_KINDS = ['path', 'input', 'candidate', 'outcome', 'output'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/** One field that differs: its JSON path (`$.items[1].sku`) and its value in A and in B (absent: the field is missing). */
export const FieldDifference = z.object({
  path: z.string(),
  a: JsonValue.optional(),
  b: JsonValue.optional(),
});
export type FieldDifference = z.infer<typeof FieldDifference>;

/** One of the two runs. */
export const ComparedRun = z.object({
  id: z.string(),
  workflowId: z.string(),
  version: z.number().int().positive(),
  state: z.enum(RUN_STATES),
  inputRevision: z.number().int().positive(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
});
export type ComparedRun = z.infer<typeof ComparedRun>;

/** What an attempt came to (AttemptView's states). */
export const ATTEMPT_STATES = ['running', 'succeeded', 'failed', 'unknown', 'partial', 'cancelled'] as const;

/**
 * A step as one run has it: null in `steps[]` when the step is not in that run's version. What the
 * step did is read from its attempts, never from its state: a step that ran in an earlier pass (a
 * loop, or before a revision or an operator's retry) and that the latest pass went past may read
 * `skipped`, and still ran.
 */
export const ComparedStepSide = z.object({
  /** The step's state and outcome now, as the run's latest pass has them. */
  state: z.enum(STEP_STATES),
  outcome: SettleOutcome.nullable(),
  /** Attempts over all activations. */
  attempts: z.number().int().nonnegative(),
  /** How often the step was activated (a withdrawn activation counts too). */
  activations: z.number().int().nonnegative(),
  /** The step started at least one attempt in this run, in any pass. */
  ran: z.boolean(),
  /**
   * The step is on the run's path: it ran; or an operator or evidence reused from an earlier
   * revision or run settled it without an attempt; or it is due now (ready, waiting).
   */
  reached: z.boolean(),
  /** The state of its last attempt (null: it never started one): what it did when it last ran. */
  lastAttempt: z.enum(ATTEMPT_STATES).nullable(),
  /** Present (true) when the step settled and the latest pass then went past it (RestartRecord `passedOver`): `state` is how it settled. */
  passedOver: z.literal(true).optional(),
  /** The steps its taken outgoing edges lead to, sorted. */
  next: z.array(z.string()),
  /** The id ("verify/1.2") of the attempt that decided the step, whose input and output are shown; null when none. */
  attempt: z.string().nullable(),
  /**
   * The resolved input and the output of the attempt that decided the step (absent: none). From
   * `GET /api/compare`, a value over COMPARE_VALUE_LIMIT bytes is an ElidedValue stub whose path
   * reads it back from that side's run (`GET /api/runs/:id/value`).
   */
  input: JsonValue.optional(),
  output: JsonValue.optional(),
  /** An agent step with candidates: the candidate the deciding attempt ran on (docs/routing.md); absent otherwise. */
  candidate: z.string().optional(),
  /** That attempt's error (a failed or unknown attempt), else null. */
  error: ErrorInfo.nullable(),
  /** The first attempt's start and the last attempt's end; null when none started or ended. */
  startedAtMs: z.number().nullable(),
  endedAtMs: z.number().nullable(),
  /**
   * The time its attempts took: for each activation, from its first attempt's start to its last
   * attempt's end (its own retry waits count), added up over the activations, so the time between
   * passes does not. Null when it never ran, and while an attempt is still going.
   */
  durationMs: z.number().nullable(),
});
export type ComparedStepSide = z.infer<typeof ComparedStepSide>;

/**
 * The fields of a step's input and of its output that differ between the runs (empty unless it
 * ran in both). `GET /api/compare` lists at most COMPARE_FIELD_LIMIT of each; the totals count them all.
 */
export const StepFieldDiffs = z.object({
  input: z.array(FieldDifference),
  output: z.array(FieldDifference),
  inputTotal: z.number().int().nonnegative(),
  outputTotal: z.number().int().nonnegative(),
});
export type StepFieldDiffs = z.infer<typeof StepFieldDiffs>;

export const ComparedStep = z.object({
  id: z.string(),
  a: ComparedStepSide.nullable(),
  b: ComparedStepSide.nullable(),
  /** Every way the step differs between the runs, in DIFFERENCE_KINDS order (empty: alike). */
  differs: z.array(z.enum(DIFFERENCE_KINDS)),
  fields: StepFieldDiffs,
});
export type ComparedStep = z.infer<typeof ComparedStep>;

/** The earliest step (in `steps` order) that differs, and how. */
export const FirstDifference = z.object({
  stepId: z.string(),
  kind: z.enum(DIFFERENCE_KINDS),
  /** For `input` and `output`: the JSON paths of the fields that differ. */
  paths: z.array(z.string()).optional(),
  /** For `input` and `output`: each differing field with its value in A and in B. */
  fields: z.array(FieldDifference).optional(),
  /** For `input` and `output`: how many fields differ (`GET /api/compare` lists at most COMPARE_FIELD_LIMIT of them). */
  total: z.number().int().nonnegative().optional(),
  /** The difference in words, such as `A took pick→big, B took pick→small`. */
  why: z.string(),
});
export type FirstDifference = z.infer<typeof FirstDifference>;

/**
 * Two runs compared.
 *
 * @example
 * const c = RunComparison.parse(JSON.parse(stdoutOfWeftCompareJson));
 * if (c.firstDifference?.kind === 'output') console.log(c.firstDifference.paths);
 */
export const RunComparison = z.object({
  runs: z.tuple([ComparedRun, ComparedRun]),
  firstDifference: FirstDifference.nullable(),
  /** Every step of either run, in the comparison order: the union graph's topological order. */
  steps: z.array(ComparedStep),
  /** The steps each run reached, in the order it first reached them (docs/compare.md). */
  route: z.object({ a: z.array(z.string()), b: z.array(z.string()) }),
  /** The fields of the run inputs that differ (empty when the runs had the same input). */
  inputDiff: z.array(FieldDifference),
  /** How many fields of the run inputs differ (`GET /api/compare` lists at most COMPARE_FIELD_LIMIT). */
  inputDiffTotal: z.number().int().nonnegative(),
  /** The diff of A's version to B's, when they run different versions (or workflows) and both definitions are known. */
  versionDiff: WorkflowDiff.nullable(),
  /** No step differs in path, input, outcome or output (`firstDifference` is null). */
  same: z.boolean(),
});
export type RunComparison = z.infer<typeof RunComparison>;

/** `GET /api/compare?a=RUN&b=RUN`: two run ids, or unique prefixes. */
export const CompareQuery = z.strictObject({ a: RunId, b: RunId });
export type CompareQuery = z.infer<typeof CompareQuery>;
