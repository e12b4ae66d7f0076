// What the diff view draws: from two versions and their semantic diff, the steps and edges of
// each side (and of the overlay, both sides in one graph) marked added, removed, changed, moved
// or same, and the list of changes in the order the view lists them, each with the fields that
// changed and their value before and after (the shared diff names only the parts: "config").
import type { Edge, Step, Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { WorkflowDiff } from '../../../shared/definition/workflow-diff-schema.ts';
import { JsonValue } from '../../../shared/api/json-value.ts';
import { jsonDiff } from '../../../shared/run/json-diff.ts';
import type { FieldDifference } from '../../../shared/api/run-comparison.ts';
import type { DiffMark } from '../../graph/to-flow.ts';

export interface MarkedStep {
  step: Step;
  mark: DiffMark;
  parts: string[];
}
export interface MarkedEdge {
  edge: Edge;
  mark: DiffMark;
  parts: string[];
}
export interface MarkedGraph {
  steps: MarkedStep[];
  edges: MarkedEdge[];
}

/** One field of a step, edge or the workflow that differs: its path (`config.url`), its value in A and in B (absent: not set). */
export type FieldChange = FieldDifference;

export interface ChangeItem {
  /** Stable key, and what the list selects: a step or an edge id. */
  key: string;
  target: { kind: 'step'; id: string } | { kind: 'edge'; id: string } | { kind: 'workflow' };
  mark: Exclude<DiffMark, 'same'>;
  text: string;
  /** For a change: each field that differs, old and new value; empty for added, removed and moved. */
  fields: FieldChange[];
}

const asJson = (value: unknown): JsonValue | undefined => {
  if (value === undefined) return undefined;
  const parsed = JsonValue.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

/** The fields where two versions of an element differ: `only` those named, else all but its id (a rename is said in the item's text). */
function fieldChanges(a: Step | Edge | Workflow | undefined, b: Step | Edge | Workflow | undefined, only?: readonly string[]): FieldChange[] {
  const pick = (v: Step | Edge | Workflow | undefined): JsonValue | undefined => {
    if (v === undefined) return undefined;
    const entries = Object.entries(v).filter(([k]) => (only === undefined ? k !== 'id' : only.includes(k)));
    return asJson(Object.fromEntries(entries));
  };
  return jsonDiff(pick(a), pick(b)).map((f) => ({ ...f, path: f.path.replace(/^\$\.?/, '') }));
}

function stepMarks(diff: WorkflowDiff): Map<string, { mark: DiffMark; parts: string[] }> {
  const marks = new Map<string, { mark: DiffMark; parts: string[] }>();
  for (const id of diff.layout.moved) marks.set(id, { mark: 'moved', parts: ['layout'] });
  for (const c of diff.steps.changed) marks.set(c.id, { mark: 'changed', parts: [...c.parts] });
  for (const id of diff.steps.added) marks.set(id, { mark: 'added', parts: [] });
  for (const id of diff.steps.removed) marks.set(id, { mark: 'removed', parts: [] });
  return marks;
}

function edgeMarks(diff: WorkflowDiff): Map<string, { mark: DiffMark; parts: string[] }> {
  const marks = new Map<string, { mark: DiffMark; parts: string[] }>();
  for (const c of diff.edges.changed) marks.set(c.id, { mark: 'changed', parts: [...c.parts] });
  for (const r of diff.edges.renamed) marks.set(r.id, { mark: 'changed', parts: ['renamed', ...r.parts] });
  for (const id of diff.edges.added) marks.set(id, { mark: 'added', parts: [] });
  for (const id of diff.edges.removed) marks.set(id, { mark: 'removed', parts: [] });
  return marks;
}

const mark = (marks: Map<string, { mark: DiffMark; parts: string[] }>, id: string) => marks.get(id) ?? { mark: 'same' as const, parts: [] };

/** One side of a side-by-side view: A shows what was removed, B what was added; both show changes. */
export function markSide(workflow: Workflow, diff: WorkflowDiff, side: 'a' | 'b'): MarkedGraph {
  const steps = stepMarks(diff);
  const edges = edgeMarks(diff);
  // A renamed edge is changed on both sides: on A under its old id.
  const renamedFrom = new Map(diff.edges.renamed.map((r) => [r.was, r.id]));
  return {
    steps: workflow.steps.map((step) => ({ step, ...mark(steps, step.id) })),
    edges: workflow.edges.map((edge) => {
      const id = side === 'a' ? (renamedFrom.get(edge.id) ?? edge.id) : edge.id;
      return { edge, ...mark(edges, id) };
    }),
  };
}

/** Both versions in one graph: B's steps and edges, plus A's removed ones (drawn struck out). */
export function markOverlay(a: Workflow, b: Workflow, diff: WorkflowDiff): MarkedGraph {
  const side = markSide(b, diff, 'b');
  const removedSteps = new Set(diff.steps.removed);
  const removedEdges = new Set(diff.edges.removed);
  return {
    steps: [...side.steps, ...a.steps.filter((s) => removedSteps.has(s.id)).map((step) => ({ step, mark: 'removed' as const, parts: [] }))],
    edges: [...side.edges, ...a.edges.filter((e) => removedEdges.has(e.id)).map((edge) => ({ edge, mark: 'removed' as const, parts: [] }))],
  };
}

/** The list of changes, steps first, then edges, workflow-level parts, and layout; `a` and `b` are the two versions the diff was taken of. */
export function changeItems(diff: WorkflowDiff, a: Workflow, b: Workflow): ChangeItem[] {
  const items: ChangeItem[] = [];
  const kind = (id: string) => diff.steps.kinds[id] ?? 'step';
  const stepIn = (w: Workflow, id: string) => w.steps.find((s) => s.id === id);
  const edgeIn = (w: Workflow, id: string) => w.edges.find((e) => e.id === id);
  const none: FieldChange[] = [];
  for (const id of diff.steps.added) items.push({ key: `s+${id}`, target: { kind: 'step', id }, mark: 'added', text: `step ${id} (${kind(id)}) added`, fields: none });
  for (const id of diff.steps.removed) items.push({ key: `s-${id}`, target: { kind: 'step', id }, mark: 'removed', text: `step ${id} (${kind(id)}) removed`, fields: none });
  for (const c of diff.steps.changed) {
    items.push({ key: `s~${c.id}`, target: { kind: 'step', id: c.id }, mark: 'changed', text: `step ${c.id}: ${c.parts.join(', ')}`, fields: fieldChanges(stepIn(a, c.id), stepIn(b, c.id)) });
  }
  const ends = (id: string) => {
    const e = diff.edges.ends[id];
    return e === undefined ? '' : ` ${e.from} → ${e.to}`;
  };
  for (const id of diff.edges.added) items.push({ key: `e+${id}`, target: { kind: 'edge', id }, mark: 'added', text: `edge ${id}${ends(id)} added`, fields: none });
  for (const id of diff.edges.removed) items.push({ key: `e-${id}`, target: { kind: 'edge', id }, mark: 'removed', text: `edge ${id}${ends(id)} removed`, fields: none });
  for (const c of diff.edges.changed) {
    const route = c.ends === undefined ? '' : ` (${c.ends.a.from} → ${c.ends.a.to} ⇒ ${c.ends.b.from} → ${c.ends.b.to})`;
    items.push({ key: `e~${c.id}`, target: { kind: 'edge', id: c.id }, mark: 'changed', text: `edge ${c.id}: ${c.parts.join(', ')}${route}`, fields: fieldChanges(edgeIn(a, c.id), edgeIn(b, c.id)) });
  }
  for (const r of diff.edges.renamed) {
    items.push({
      key: `e=${r.id}`,
      target: { kind: 'edge', id: r.id },
      mark: 'changed',
      text: `edge ${r.was} renamed to ${r.id}${r.parts.length > 0 ? `: ${r.parts.join(', ')}` : ''}`,
      fields: fieldChanges(edgeIn(a, r.was), edgeIn(b, r.id)),
    });
  }
  for (const part of diff.workflow.changed) {
    items.push({ key: `w~${part}`, target: { kind: 'workflow' }, mark: 'changed', text: `workflow ${part} changed`, fields: fieldChanges(a, b, [part]) });
  }
  if (diff.layout.moved.length > 0) {
    items.push({ key: 'layout', target: { kind: 'workflow' }, mark: 'moved', text: `layout: ${diff.layout.moved.length} step${diff.layout.moved.length === 1 ? '' : 's'} moved`, fields: none });
  }
  return items;
}
