// The parts of a step, an edge and a workflow that a diff reports, as plain lists apart from the
// diff's zod schema (workflow-diff-schema.ts re-exports them): workflow-diff.ts computes a diff
// with the lists alone, and the engine's readers load it (run comparison) without building the
// schema (issue 20, step 9: what a `weft` command loads at start).

/** The parts of a step that can differ, in the order they are reported. */
export const STEP_DIFF_PARTS = [
  'kind',
  'config',
  'input',
  'output',
  'accept',
  'retry',
  /** effect, idempotencyKey and onRevise */
  'effect',
  /** timeoutMs, deadlineMs and onExhausted */
  'timing',
  'compensation',
  'resource',
  'optional',
  /** name and description */
  'meta',
  /** an edge into or out of the step was added, removed, renamed, rerouted or changed */
  'edges',
] as const;
export type StepDiffPart = (typeof STEP_DIFF_PARTS)[number];

/** The parts of an edge that can differ, in the order they are reported. */
export const EDGE_DIFF_PARTS = [
  /** from or to changed */
  'rerouted',
  'on',
  'when',
  'default',
  'maxTraversals',
] as const;
export type EdgeDiffPart = (typeof EDGE_DIFF_PARTS)[number];

/** The workflow-level parts that can differ (version, $schema and layout never do; see versions and layout). */
export const WORKFLOW_DIFF_PARTS = ['id', 'name', 'description', 'input', 'output', 'limits'] as const;
export type WorkflowDiffPart = (typeof WORKFLOW_DIFF_PARTS)[number];
