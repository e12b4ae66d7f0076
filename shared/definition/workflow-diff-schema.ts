// The semantic diff of two workflow versions as JSON: what `weft diff --json` prints and what the
// app's diff view parses. workflow-diff.ts beside it computes it; docs/diff.md describes it. It
// lives in definition/, a layer below api/, since the computation (a job on definitions) builds it.
// The first fields (steps.added/removed/changed, edges.added/removed/changed, layoutOnly) are a
// contract kept exactly; the others were added beside them, and later ones may be added too, so
// the objects here are not strict: an older app ignores a field it does not know.
import { z } from 'zod';
import { EDGE_DIFF_PARTS, STEP_DIFF_PARTS, WORKFLOW_DIFF_PARTS, type EdgeDiffPart, type StepDiffPart, type WorkflowDiffPart } from './workflow-diff-parts.ts';

export { EDGE_DIFF_PARTS, STEP_DIFF_PARTS, WORKFLOW_DIFF_PARTS, type EdgeDiffPart, type StepDiffPart, type WorkflowDiffPart };

const Ends = z.object({ from: z.string(), to: z.string() });
export type EdgeEnds = z.infer<typeof Ends>;

export const StepChange = z.object({
  id: z.string(),
  parts: z.array(z.enum(STEP_DIFF_PARTS)).min(1),
  /** The step's kind in A and in B, present when `parts` has "kind". */
  kinds: z.object({ a: z.string(), b: z.string() }).optional(),
});
export type StepChange = z.infer<typeof StepChange>;

export const EdgeChange = z.object({
  id: z.string(),
  parts: z.array(z.enum(EDGE_DIFF_PARTS)).min(1),
  /** Where the edge ran in A and in B, present when `parts` has "rerouted". */
  ends: z.object({ a: Ends, b: Ends }).optional(),
});
export type EdgeChange = z.infer<typeof EdgeChange>;

/** An edge of A whose id is gone from B, paired with a new id of B that has the same from, to and on. */
export const EdgeRename = z.object({
  was: z.string(),
  id: z.string(),
  /** What else changed (when, default, maxTraversals); empty for a pure rename. */
  parts: z.array(z.enum(EDGE_DIFF_PARTS)),
});
export type EdgeRename = z.infer<typeof EdgeRename>;

/**
 * The diff of workflow A to workflow B.
 *
 * @example
 * const diff = WorkflowDiff.parse(JSON.parse(stdoutOfWeftDiffJson));
 * if (!diff.same) for (const c of diff.steps.changed) console.log(c.id, c.parts.join(', '));
 */
export const WorkflowDiff = z.object({
  steps: z.object({
    /** Ids of B's steps that A has not, in B's order. */
    added: z.array(z.string()),
    /** Ids of A's steps that B has not, in A's order. */
    removed: z.array(z.string()),
    /** Steps in both that differ, in B's order. */
    changed: z.array(StepChange),
    /** The kind of each added and removed step. */
    kinds: z.record(z.string(), z.string()),
  }),
  edges: z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(EdgeChange),
    /** Removed-and-added pairs taken as one edge given a new id; neither id is in added or removed. */
    renamed: z.array(EdgeRename),
    /** from and to of each added edge (in B), removed edge (in A) and renamed edge (by its new id). */
    ends: z.record(z.string(), Ends),
  }),
  /** True when the only difference is the layout (box positions). */
  layoutOnly: z.boolean(),
  workflow: z.object({ changed: z.array(z.enum(WORKFLOW_DIFF_PARTS)) }),
  /** Steps in both whose position differs (moved, or placed in one version only), in B's order. */
  layout: z.object({ moved: z.array(z.string()) }),
  /** The `version` of A and of B: reported, never counted as a difference. */
  versions: z.object({ a: z.number(), b: z.number() }),
  /** True when nothing differs, layout included. */
  same: z.boolean(),
});
export type WorkflowDiff = z.infer<typeof WorkflowDiff>;
