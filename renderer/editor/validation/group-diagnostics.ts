// Sorts a validation result by where it shows: per step, per edge, on the workflow. Arrays and
// diagnostics that did not change keep their identity from the previous result, so a memoized
// canvas node whose problems are the same does not re-render when another step is edited.
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { locateDiagnostic, type DocIds } from './diagnostic-target.ts';

export interface GroupedDiagnostics {
  /** Every diagnostic, errors first (the validator's order). */
  diagnostics: Diagnostic[];
  byStep: Record<string, Diagnostic[]>;
  byEdge: Record<string, Diagnostic[]>;
  /** Diagnostics about the workflow as a whole (its input, output, limits, layout). */
  workflowLevel: Diagnostic[];
}

export const NO_DIAGNOSTICS: GroupedDiagnostics = Object.freeze({
  diagnostics: [],
  byStep: Object.create(null),
  byEdge: Object.create(null),
  workflowLevel: [],
});

const keyOf = (d: Diagnostic): string =>
  JSON.stringify([d.code, d.severity, d.stepId, d.edgeId, d.path, d.message, d.hint, d.line, d.column, d.position]);

const sameItems = <T>(a: readonly T[] | undefined, b: readonly T[]): boolean =>
  a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** Keeps the previous array when it holds the same diagnostics, and the previous record when every entry was kept. */
function stabilise(next: Record<string, Diagnostic[]>, previous: Record<string, Diagnostic[]>): Record<string, Diagnostic[]> {
  let allKept = Object.keys(previous).length === Object.keys(next).length;
  for (const [id, list] of Object.entries(next)) {
    const before = previous[id];
    if (before !== undefined && sameItems(before, list)) next[id] = before;
    else allKept = false;
  }
  return allKept ? previous : next;
}

/**
 * Groups `diagnostics` (the result for `doc`) by target, reusing what is unchanged from `previous`.
 *
 * @example
 * const g = groupDiagnostics(result, doc, NO_DIAGNOSTICS);
 * g.byStep['charge'] // the problems badge of step "charge"
 */
export function groupDiagnostics(diagnostics: readonly Diagnostic[], doc: DocIds | null, previous: GroupedDiagnostics): GroupedDiagnostics {
  const known = new Map<string, Diagnostic>();
  for (const d of previous.diagnostics) known.set(keyOf(d), d);
  // Step ids are user text ("__proto__" is a valid one): records without a prototype.
  const byStep: Record<string, Diagnostic[]> = Object.create(null);
  const byEdge: Record<string, Diagnostic[]> = Object.create(null);
  const workflowLevel: Diagnostic[] = [];
  const all: Diagnostic[] = [];
  for (const fresh of diagnostics) {
    const d = known.get(keyOf(fresh)) ?? fresh;
    all.push(d);
    const { target } = locateDiagnostic(d, doc);
    if (target.kind === 'step') (byStep[target.stepId] ??= []).push(d);
    else if (target.kind === 'edge') (byEdge[target.edgeId] ??= []).push(d);
    else workflowLevel.push(d);
  }
  return {
    diagnostics: sameItems(previous.diagnostics, all) ? previous.diagnostics : all,
    byStep: stabilise(byStep, previous.byStep),
    byEdge: stabilise(byEdge, previous.byEdge),
    workflowLevel: sameItems(previous.workflowLevel, workflowLevel) ? previous.workflowLevel : workflowLevel,
  };
}
