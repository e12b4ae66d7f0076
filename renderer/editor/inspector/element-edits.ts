// The inspector's edits of one step, edge or the workflow's own fields, as pure functions from
// document to document. Each refuses a value of the wrong shape with a one-line reason instead
// of writing it, so the document always has the format's types.
import { Edge as EdgeSchema, Step as StepSchema, Workflow as WorkflowSchema, type Edge, type Step, type Workflow } from '../../../shared/definition/workflow-schema.ts';
import { STEP_ID_PATTERN, WORKFLOW_ID_PATTERN } from '../../../shared/definition/names.ts';
import { replaceEdge, replaceStep } from '../doc-ops.ts';
import type { InspectedElement, Segment } from './focus-target.ts';
import { conforms, firstShapeIssue, setIn } from './form-values.ts';

export type EditResult = { ok: true; doc: Workflow } | { ok: false; error: string };

/** The workflow's own fields: what the workflow inspector and its JSON view edit. */
export const WorkflowHead = WorkflowSchema.omit({ steps: true, edges: true, layout: true });
export type WorkflowHead = Omit<Workflow, 'steps' | 'edges' | 'layout'>;

/** A step's `config` stays even when empty: most kinds require it. */
const keepConfig = (path: string): boolean => path === 'config';

export function headOf(doc: Workflow): WorkflowHead {
  const { steps: _s, edges: _e, layout: _l, ...head } = doc;
  return head;
}

/** The element itself, as the JSON view shows it; null when it is gone. */
export function elementValue(doc: Workflow, element: InspectedElement): Step | Edge | WorkflowHead | null {
  if (element.type === 'workflow') return headOf(doc);
  if (element.type === 'step') return doc.steps.find((s) => s.id === element.id) ?? null;
  return doc.edges.find((e) => e.id === element.id) ?? null;
}

/** Why `next` cannot be the id of step `current`; null when it can. */
export function stepIdError(doc: Workflow, current: string, next: string): string | null {
  if (next === '') return 'a step needs an id';
  if (!STEP_ID_PATTERN.test(next)) return 'use letters, digits and _, not starting with a digit (expressions read it as steps.<id>)';
  if (next !== current && doc.steps.some((s) => s.id === next)) return `another step is already called "${next}"`;
  return null;
}

export function workflowIdError(next: string): string | null {
  if (next === '') return 'a workflow needs an id';
  if (!WORKFLOW_ID_PATTERN.test(next)) return 'use a slug of lower-case letters, digits and -, such as "order-flow"';
  return null;
}

function putStep(doc: Workflow, id: string, next: unknown): EditResult {
  const issue = firstShapeIssue(StepSchema, next);
  if (issue !== null || !conforms(StepSchema, next)) return { ok: false, error: issue ?? 'not a step' };
  const idError = stepIdError(doc, id, next.id);
  if (idError !== null) return { ok: false, error: `id: ${idError}` };
  if (next.compensation === next.id) return { ok: false, error: 'compensation: a step cannot offset itself' };
  return { ok: true, doc: replaceStep(doc, id, next) };
}

function putEdge(doc: Workflow, id: string, next: unknown): EditResult {
  const issue = firstShapeIssue(EdgeSchema, next);
  if (issue !== null || !conforms(EdgeSchema, next)) return { ok: false, error: issue ?? 'not an edge' };
  for (const end of ['from', 'to'] as const) {
    if (!doc.steps.some((s) => s.id === next[end])) return { ok: false, error: `${end}: no step is called "${next[end]}"` };
  }
  if (next.id !== id && doc.edges.some((e) => e.id === next.id)) return { ok: false, error: `id: another edge is already called "${next.id}"` };
  return { ok: true, doc: replaceEdge(doc, id, next) };
}

function putHead(doc: Workflow, next: unknown): EditResult {
  const issue = firstShapeIssue(WorkflowHead, next);
  if (issue !== null || !conforms(WorkflowHead, next)) return { ok: false, error: issue ?? 'not a workflow' };
  return { ok: true, doc: { ...next, steps: doc.steps, edges: doc.edges, ...(doc.layout === undefined ? {} : { layout: doc.layout }) } };
}

/** Replaces the whole element (the JSON view's apply). */
export function replaceElement(doc: Workflow, element: InspectedElement, next: unknown): EditResult {
  if (element.type === 'workflow') return putHead(doc, next);
  if (elementValue(doc, element) === null) return { ok: false, error: `the ${element.type} "${element.id}" is no longer in the workflow` };
  return element.type === 'step' ? putStep(doc, element.id, next) : putEdge(doc, element.id, next);
}

/**
 * Sets one field of the element (`undefined` removes it).
 *
 * @example
 * editField(doc, { type: 'step', id: 'fetch' }, ['retry', 'maxAttempts'], 5)
 */
export function editField(doc: Workflow, element: InspectedElement, path: readonly Segment[], value: unknown): EditResult {
  const current = elementValue(doc, element);
  if (current === null) return { ok: false, error: `the ${element.type === 'workflow' ? 'workflow' : element.id} is no longer in the workflow` };
  const next = setIn(current, path, value, element.type === 'step' ? keepConfig : undefined);
  return replaceElement(doc, element, next);
}
