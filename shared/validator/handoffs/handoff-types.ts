// The data-handoff view of a workflow: for each step, what its expressions read and from where;
// for each edge, what flows along it. Built by analyze-handoffs.ts on the validator's own read
// analysis, so a flagged read here is exactly a diagnostic there (same code, path and position).

/** Where a read's data comes from; `unresolved` names what could not be resolved (an unknown step id, `output` out of place, the whole `steps`). */
export type HandoffSource =
  | { kind: 'input' }
  | { kind: 'run' }
  | { kind: 'step'; stepId: string }
  | { kind: 'unresolved'; name: string };

/** The validator's finding for a read, with the branches that explain it. */
export interface HandoffProblem {
  /** The validator's code: missing-dependency, unguarded-loop-read, undeclared-field or unknown-step-reference. */
  code: string;
  message: string;
  hint: string;
  /**
   * For a source that may not have run: the steps on the paths that reach the reader without it
   * (the branch the run can take instead); when no such step exists, the source itself (the
   * branch that produces it). For a loop read: the source, seen back through `edges`.
   */
  branches?: string[];
  /** The edges where those paths leave the source's branch (or the loop edge a loop read goes through). */
  edges?: string[];
}

/** Add the read field (as `{}`, any value) to the source's schema: the step's `output` or the workflow's `input`. */
export interface DeclareFix {
  kind: 'declare';
  target: { kind: 'input' } | { kind: 'step'; stepId: string };
  /** Field names below the schema's root, the last one being the undeclared field. */
  names: string[];
  label: string;
}

/**
 * Rewrite the expression so the read sits behind an `$exists` guard the validator accepts: for a
 * loop read, `$exists(steps.X.output) ? (…) : null`; for a step that may not have run but arrives
 * at a join before the reader, the read goes through the join's output,
 * `$exists(steps.J.output.X) ? (… steps.J.output.X …) : null`. (`false` in place of `null` in conditions.)
 */
export interface GuardFix {
  kind: 'guard';
  /** The expression as it is now, at `offset` in the string at the read's site (a template placeholder sits inside a longer string). */
  offset: number;
  before: string;
  after: string;
  /** The join the read is routed through, when it is. */
  via?: string;
  label: string;
}

export type HandoffFix = DeclareFix | GuardFix;

export interface HandoffRead {
  /** JSON path of the string holding the expression: `$.steps[3].input`, `$.edges[2].when`, `$.output`. */
  site: string;
  /** Offset of the read inside that string (what a diagnostic's `position` holds). */
  position?: number;
  /** The edge whose condition holds the read, when it is one. */
  edgeId?: string;
  /** The read as a dotted path: `steps.fetch.output.total`, `input.customerId`, `output.body`, `run.id`. */
  field: string;
  source: HandoffSource;
  /** The source has certainly finished, with an output, on every path to the reader (input and run always have). */
  guaranteed: boolean;
  /** The read sits behind an `$exists(steps.X.output)` guard. */
  guarded: boolean;
  /** The source's schema declares the field; null when the source has no schema, or it is open there. */
  declared: boolean | null;
  problem?: HandoffProblem;
  fixes: HandoffFix[];
}

/** A read that takes data along an edge: by the edge's own condition, or by the step it leads to. */
export type HandoffFlow = HandoffRead & {
  /** `when`: the edge's condition reads it; otherwise the id of the step the edge leads to. */
  readBy: string;
  /** The source is a step that finished before the edge's from-step (carried through it), not the from-step itself. */
  carried: boolean;
};

export interface Handoffs {
  /** Every step id, with what its expressions (and its outgoing edges' conditions) read. */
  steps: Record<string, HandoffRead[]>;
  /** Every edge id between known steps, with what flows along it. */
  edges: Record<string, HandoffFlow[]>;
  /** What the workflow's `output` expression reads. */
  workflowOutput: HandoffRead[];
}
