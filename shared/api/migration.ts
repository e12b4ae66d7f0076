// What `weft migrate --json` prints and `POST /api/runs/:id/migrate` answers: per run, the plan of
// moving it to another version of its workflow (engine/evolution/migration-plan.ts), a verdict,
// and, once applied, whether it was. docs/evolution.md "Migration" describes the checks.
import { z } from 'zod';

export const MIGRATION_VERDICTS = ['safe', 'needs_decision', 'refused'] as const;

/** Why a run cannot move: a stable code, the step it concerns (if one), and what to do. */
export const MigrationRefusal = z.strictObject({
  code: z.enum([
    'finished',
    'failing',
    'other_workflow',
    'same_version',
    'no_counterpart',
    'kind_changed',
    'active_renamed',
    'output_lacks_read',
    'external_config_changed',
    'loop_past_bound',
    'join_cannot_be_met',
    'bad_decision',
  ]),
  step: z.string().optional(),
  /** For output_lacks_read: the path the new version reads (`steps.draft.output.summary`). */
  path: z.string().optional(),
  message: z.string(),
});
export type MigrationRefusal = z.infer<typeof MigrationRefusal>;

/** A new step upstream of completed work: it would have run before that work. Skip it, or run it now. */
export const MigrationDecision = z.strictObject({
  step: z.string(),
  /** The completed steps it is upstream of. */
  before: z.array(z.string()),
  /** The choice given (`--decide STEP=skip|run`), or null while undecided. */
  choice: z.enum(['skip', 'run']).nullable(),
  message: z.string(),
});
export type MigrationDecision = z.infer<typeof MigrationDecision>;

export const MigrationPlan = z.strictObject({
  runId: z.string(),
  workflowId: z.string(),
  state: z.string(),
  fromVersion: z.number().int(),
  toVersion: z.number().int(),
  verdict: z.enum(MIGRATION_VERDICTS),
  /** Old step id → new step id, for every step the new version keeps. */
  mapping: z.record(z.string(), z.string()),
  /** Steps of the run's version the new one drops. */
  dropped: z.array(z.string()),
  /** Steps new in the target version. */
  added: z.array(z.string()),
  decisions: z.array(MigrationDecision),
  refusals: z.array(MigrationRefusal),
  /** What the migration changes that needs no decision (a changed join or loop bound that still fits). */
  notes: z.array(z.string()),
});
export type MigrationPlan = z.infer<typeof MigrationPlan>;

/** One run's line of a migration: its plan, and whether it was applied (false for a dry run, or a plan not safe). */
export const MigrationResult = z.strictObject({
  plan: MigrationPlan,
  applied: z.boolean(),
  /** Why applying a safe plan failed (the run is untouched). */
  error: z.string().optional(),
});
export type MigrationResult = z.infer<typeof MigrationResult>;

/** `weft migrate --json` and the migrate routes' answer. */
export const MigrationReport = z.strictObject({
  dryRun: z.boolean(),
  toVersion: z.number().int(),
  runs: z.array(MigrationResult),
});
export type MigrationReport = z.infer<typeof MigrationReport>;

/** The body of `POST /api/runs/:id/migrate` and `POST /api/workflows/:id/migrate`. */
export const MigrateCommand = z.strictObject({
  toVersion: z.number().int().positive(),
  map: z.record(z.string(), z.string()).optional(),
  decide: z.record(z.string(), z.enum(['skip', 'run'])).optional(),
  dryRun: z.boolean().optional(),
  by: z.string().optional(),
  reason: z.string().optional(),
  /** For the workflow route: only the unfinished runs of this version (default: every version but the target). */
  fromVersion: z.number().int().positive().optional(),
});
export type MigrateCommand = z.infer<typeof MigrateCommand>;
