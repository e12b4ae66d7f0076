// What the diff view draws: from two versions and their semantic diff, the steps and edges of
// each side (and of the overlay, both sides in one graph) marked added, removed, changed, moved
// or same, and the list of changes in the order the view lists them.
import type { Edge, Step, Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { WorkflowDiff } from '../../../shared/definition/workflow-diff-schema.ts';
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

export interface ChangeItem {
  /** Stable key, and what the list selects: a step or an edge id. */
  key: string;
  target: { kind: 'step'; id: string } | { kind: 'edge'; id: string } | { kind: 'workflow' };
  mark: Exclude<DiffMark, 'same'>;
  text: string;
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

/** The list of changes, steps first, then edges, workflow-level parts, and layout. */
export function changeItems(diff: WorkflowDiff): ChangeItem[] {
  const items: ChangeItem[] = [];
  const kind = (id: string) => diff.steps.kinds[id] ?? 'step';
  for (const id of diff.steps.added) items.push({ key: `s+${id}`, target: { kind: 'step', id }, mark: 'added', text: `step ${id} (${kind(id)}) added` });
  for (const id of diff.steps.removed) items.push({ key: `s-${id}`, target: { kind: 'step', id }, mark: 'removed', text: `step ${id} (${kind(id)}) removed` });
  for (const c of diff.steps.changed) items.push({ key: `s~${c.id}`, target: { kind: 'step', id: c.id }, mark: 'changed', text: `step ${c.id}: ${c.parts.join(', ')}` });
  const ends = (id: string) => {
    const e = diff.edges.ends[id];
    return e === undefined ? '' : ` ${e.from} → ${e.to}`;
  };
  for (const id of diff.edges.added) items.push({ key: `e+${id}`, target: { kind: 'edge', id }, mark: 'added', text: `edge ${id}${ends(id)} added` });
  for (const id of diff.edges.removed) items.push({ key: `e-${id}`, target: { kind: 'edge', id }, mark: 'removed', text: `edge ${id}${ends(id)} removed` });
  for (const c of diff.edges.changed) {
    const route = c.ends === undefined ? '' : ` (${c.ends.a.from} → ${c.ends.a.to} ⇒ ${c.ends.b.from} → ${c.ends.b.to})`;
    items.push({ key: `e~${c.id}`, target: { kind: 'edge', id: c.id }, mark: 'changed', text: `edge ${c.id}: ${c.parts.join(', ')}${route}` });
  }
  for (const r of diff.edges.renamed) items.push({ key: `e=${r.id}`, target: { kind: 'edge', id: r.id }, mark: 'changed', text: `edge ${r.was} renamed to ${r.id}${r.parts.length > 0 ? `: ${r.parts.join(', ')}` : ''}` });
  for (const part of diff.workflow.changed) items.push({ key: `w~${part}`, target: { kind: 'workflow' }, mark: 'changed', text: `workflow ${part} changed` });
  if (diff.layout.moved.length > 0) {
    items.push({ key: 'layout', target: { kind: 'workflow' }, mark: 'moved', text: `layout: ${diff.layout.moved.length} step${diff.layout.moved.length === 1 ? '' : 's'} moved` });
  }
  return items;
}
