// Where a diagnostic belongs in the editor: on a step, on an edge or on the workflow, and which
// field of it. The JSON path decides (it names the field); ids the validator attached win over a
// lookup by index, because an index only holds for the document that was checked. Diagnostics
// without ids (shape errors of edges, say) still find their element through the path.
import { formatPath, type Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { fieldName, parseJsonPath } from './json-path.ts';

export type DiagnosticTarget = { kind: 'step'; stepId: string } | { kind: 'edge'; edgeId: string } | { kind: 'workflow' };

export interface DiagnosticLocation {
  target: DiagnosticTarget;
  /** The field inside the target as the inspector names it (`config.url`, `when`); null for the target as a whole. */
  field: string | null;
  /** The same field as path segments relative to the target ([] for the whole). */
  fieldPath: (string | number)[];
}

/** The parts of a document this needs; the editor's document may be shape-invalid while edited. */
export interface DocIds {
  steps?: readonly { id?: unknown }[] | undefined;
  edges?: readonly { id?: unknown }[] | undefined;
}

const idAt = (list: DocIds['steps'], index: number): string | undefined => {
  const id = Array.isArray(list) ? list[index]?.id : undefined;
  return typeof id === 'string' ? id : undefined;
};

const located = (target: DiagnosticTarget, fieldPath: (string | number)[]): DiagnosticLocation => ({
  target,
  field: fieldPath.length === 0 ? null : fieldName(fieldPath),
  fieldPath,
});

/**
 * The element and field a diagnostic is about, in `doc` (the document that was checked).
 *
 * @example
 * locateDiagnostic({ path: '$.edges[1].when', ... }, doc) // { target: { kind: 'edge', edgeId: 'e2' }, field: 'when', ... }
 */
export function locateDiagnostic(d: Pick<Diagnostic, 'path' | 'stepId' | 'edgeId'>, doc: DocIds | null): DiagnosticLocation {
  const segments = parseJsonPath(d.path) ?? [];
  const [head, index] = segments;
  if (head === 'edges' && typeof index === 'number') {
    const edgeId = d.edgeId ?? idAt(doc?.edges, index);
    if (edgeId !== undefined) return located({ kind: 'edge', edgeId }, segments.slice(2));
  }
  if (head === 'steps' && typeof index === 'number') {
    const stepId = d.stepId ?? idAt(doc?.steps, index);
    if (stepId !== undefined) return located({ kind: 'step', stepId }, segments.slice(2));
  }
  // A path outside any one element ($.steps for an unreachable step): the ids say whose it is.
  if (d.edgeId !== undefined) return located({ kind: 'edge', edgeId: d.edgeId }, []);
  if (d.stepId !== undefined) return located({ kind: 'step', stepId: d.stepId }, []);
  return located({ kind: 'workflow' }, segments);
}

/**
 * The JSON path of the located field in `doc` (the document as it is now: a step may have moved
 * in the list since the check), for the inspector's focus request; null when the element is gone.
 */
export function focusSite(location: DiagnosticLocation, doc: DocIds | null): string | null {
  const { target, fieldPath } = location;
  if (target.kind === 'workflow') return formatPath(fieldPath);
  const list = target.kind === 'step' ? doc?.steps : doc?.edges;
  const id = target.kind === 'step' ? target.stepId : target.edgeId;
  const index = Array.isArray(list) ? list.findIndex((item) => item.id === id) : -1;
  if (index < 0) return null;
  return formatPath([target.kind === 'step' ? 'steps' : 'edges', index, ...fieldPath]);
}

/** A short label of the target for lists: the step or edge id, or "workflow". */
export function targetLabel(target: DiagnosticTarget): string {
  if (target.kind === 'step') return target.stepId;
  if (target.kind === 'edge') return target.edgeId;
  return 'workflow';
}
