// The semantic diff of two versions of a workflow: which steps and edges were added, removed or
// changed (and in which parts), what changed at the workflow level, and which boxes moved. It
// compares what is written, not what the engine infers: a default written out ("optional": false)
// differs from the same field left out. Objects are compared regardless of key order, arrays in
// order. The JSON shape is workflow-diff-schema.ts beside it; the rules are in docs/diff.md.
import { EDGE_DIFF_PARTS, STEP_DIFF_PARTS, WORKFLOW_DIFF_PARTS, type EdgeDiffPart, type StepDiffPart } from './workflow-diff-parts.ts';
import type { EdgeChange, EdgeEnds, EdgeRename, StepChange, WorkflowDiff } from './workflow-diff-schema.ts';
import type { Edge, Step, Workflow } from './workflow-schema.ts';

/** The fields of a step behind each part ('edges' is worked out from the edges, not the step). */
const STEP_FIELDS: Record<Exclude<StepDiffPart, 'edges'>, readonly (keyof Step)[]> = {
  kind: ['kind'],
  config: ['config'],
  input: ['input'],
  output: ['output'],
  accept: ['accept'],
  retry: ['retry'],
  effect: ['effect', 'idempotencyKey', 'onRevise'],
  timing: ['timeoutMs', 'deadlineMs', 'onExhausted'],
  compensation: ['compensation'],
  resource: ['resource'],
  optional: ['optional'],
  meta: ['name', 'description'],
};

const EDGE_FIELDS: Record<EdgeDiffPart, readonly (keyof Edge)[]> = {
  rerouted: ['from', 'to'],
  on: ['on'],
  when: ['when'],
  default: ['default'],
  maxTraversals: ['maxTraversals'],
};

/**
 * The diff of workflow `a` to workflow `b`. Steps and edges are matched by id. An edge of A whose
 * id B lacks, and an edge of B whose id A lacks, with the same from, to and on, are one edge whose
 * id was renamed (paired in document order); they appear in `edges.renamed`, not in added/removed.
 *
 * @example
 * const diff = diffWorkflows(v1, v2);
 * diff.steps.changed; // [{ id: 'charge', parts: ['config', 'retry'] }]
 */
export function diffWorkflows(a: Workflow, b: Workflow): WorkflowDiff {
  const stepsA = byId(a.steps);
  const stepsB = byId(b.steps);
  const addedSteps = b.steps.filter((s) => !stepsA.has(s.id));
  const removedSteps = a.steps.filter((s) => !stepsB.has(s.id));
  const edges = diffEdges(a.edges, b.edges);
  const touched = stepsTouchedByEdges(a, b, edges);
  const changedSteps: StepChange[] = [];
  for (const sb of b.steps) {
    const sa = stepsA.get(sb.id);
    if (sa === undefined) continue;
    const parts = STEP_DIFF_PARTS.filter((p) => (p === 'edges' ? touched.has(sb.id) : differs(sa, sb, STEP_FIELDS[p])));
    if (parts.length === 0) continue;
    changedSteps.push({ id: sb.id, parts, ...(parts.includes('kind') ? { kinds: { a: sa.kind, b: sb.kind } } : {}) });
  }
  const workflowChanged = WORKFLOW_DIFF_PARTS.filter((p) => differs(a, b, [p]));
  const moved = b.steps.filter((s) => stepsA.has(s.id) && !sameValue(a.layout?.[s.id], b.layout?.[s.id])).map((s) => s.id);
  const kinds: Record<string, string> = {};
  for (const s of [...addedSteps, ...removedSteps]) kinds[s.id] = s.kind;
  const content =
    addedSteps.length + removedSteps.length + changedSteps.length + workflowChanged.length +
    edges.added.length + edges.removed.length + edges.changed.length + edges.renamed.length;
  return {
    steps: { added: addedSteps.map((s) => s.id), removed: removedSteps.map((s) => s.id), changed: changedSteps, kinds },
    edges,
    layoutOnly: content === 0 && moved.length > 0,
    workflow: { changed: workflowChanged },
    layout: { moved },
    versions: { a: a.version, b: b.version },
    same: content === 0 && moved.length === 0,
  };
}

/**
 * True when the diff finds no difference at all, layout included. Counts the lists rather than
 * trusting `same`, so it holds for a diff built or edited by hand.
 */
export function isSameWorkflow(diff: WorkflowDiff): boolean {
  const { steps, edges } = diff;
  return (
    steps.added.length + steps.removed.length + steps.changed.length +
    edges.added.length + edges.removed.length + edges.changed.length + edges.renamed.length +
    diff.workflow.changed.length + diff.layout.moved.length === 0
  );
}

/**
 * The diff as lines a person reads, one per change: workflow parts, then steps added, removed and
 * changed, then edges, then the layout; `no differences` when there is none.
 *
 * @example
 * diffSummaryLines(diff); // ['+ step notify (http)', '~ step charge: config, retry', '~ edge a_b: rerouted a→b ⇒ a→c', 'layout: 3 steps moved']
 */
export function diffSummaryLines(diff: WorkflowDiff): string[] {
  if (isSameWorkflow(diff)) return ['no differences'];
  const { steps, edges } = diff;
  const route = (id: string): string => {
    const e = edges.ends[id];
    return e === undefined ? '' : `: ${arrow(e)}`;
  };
  const lines: string[] = [];
  if (diff.workflow.changed.length > 0) lines.push(`~ workflow: ${diff.workflow.changed.join(', ')}`);
  for (const id of steps.added) lines.push(`+ step ${id}${kindOf(steps.kinds[id])}`);
  for (const id of steps.removed) lines.push(`- step ${id}${kindOf(steps.kinds[id])}`);
  for (const c of steps.changed) {
    lines.push(`~ step ${c.id}: ${c.parts.map((p) => (p === 'kind' && c.kinds !== undefined ? `kind ${c.kinds.a} ⇒ ${c.kinds.b}` : p)).join(', ')}`);
  }
  for (const id of edges.added) lines.push(`+ edge ${id}${route(id)}`);
  for (const id of edges.removed) lines.push(`- edge ${id}${route(id)}`);
  for (const r of edges.renamed) lines.push(`~ edge ${r.was} renamed to ${r.id}${route(r.id)}${r.parts.length > 0 ? `; ${r.parts.join(', ')}` : ''}`);
  for (const c of edges.changed) {
    const parts = c.parts.map((p) => (p === 'rerouted' && c.ends !== undefined ? `rerouted ${arrow(c.ends.a)} ⇒ ${arrow(c.ends.b)}` : p));
    lines.push(`~ edge ${c.id}: ${parts.join(', ')}`);
  }
  const moved = diff.layout.moved.length;
  if (moved > 0) lines.push(`layout: ${moved} ${moved === 1 ? 'step' : 'steps'} moved`);
  return lines;
}

const arrow = (e: EdgeEnds): string => `${e.from}→${e.to}`;
const kindOf = (kind: string | undefined): string => (kind === undefined ? '' : ` (${kind})`);

function diffEdges(a: readonly Edge[], b: readonly Edge[]): WorkflowDiff['edges'] {
  const edgesA = byId(a);
  const edgesB = byId(b);
  const removed = a.filter((e) => !edgesB.has(e.id));
  const added = b.filter((e) => !edgesA.has(e.id));
  const renamed: EdgeRename[] = [];
  for (const old of [...removed]) {
    const twin = added.find((e) => e.from === old.from && e.to === old.to && sameValue(e.on, old.on));
    if (twin === undefined) continue;
    removed.splice(removed.indexOf(old), 1);
    added.splice(added.indexOf(twin), 1);
    renamed.push({ was: old.id, id: twin.id, parts: edgeParts(old, twin) });
  }
  const changed: EdgeChange[] = [];
  for (const eb of b) {
    const ea = edgesA.get(eb.id);
    if (ea === undefined) continue;
    const parts = edgeParts(ea, eb);
    if (parts.length === 0) continue;
    changed.push({ id: eb.id, parts, ...(parts.includes('rerouted') ? { ends: { a: endsOf(ea), b: endsOf(eb) } } : {}) });
  }
  const ends: Record<string, EdgeEnds> = {};
  for (const e of [...added, ...removed]) ends[e.id] = endsOf(e);
  for (const r of renamed) {
    const e = edgesB.get(r.id);
    if (e !== undefined) ends[r.id] = endsOf(e);
  }
  return { added: added.map((e) => e.id), removed: removed.map((e) => e.id), changed, renamed, ends };
}

const edgeParts = (ea: Edge, eb: Edge): EdgeDiffPart[] => EDGE_DIFF_PARTS.filter((p) => differs(ea, eb, EDGE_FIELDS[p]));

const endsOf = (e: Edge): EdgeEnds => ({ from: e.from, to: e.to });

/** Steps at either end, in A or in B, of an edge that was added, removed, renamed or changed. */
function stepsTouchedByEdges(a: Workflow, b: Workflow, edges: WorkflowDiff['edges']): Set<string> {
  const edgesA = byId(a.edges);
  const edgesB = byId(b.edges);
  const ids = [...edges.added, ...edges.removed, ...edges.changed.map((c) => c.id), ...edges.renamed.flatMap((r) => [r.was, r.id])];
  const touched = new Set<string>();
  for (const id of ids) {
    for (const e of [edgesA.get(id), edgesB.get(id)]) {
      if (e === undefined) continue;
      touched.add(e.from);
      touched.add(e.to);
    }
  }
  return touched;
}

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]));
}

function differs<T extends object>(a: T, b: T, fields: readonly (keyof T)[]): boolean {
  return fields.some((f) => !sameValue(a[f], b[f]));
}

/**
 * Deep equality of JSON values: objects regardless of key order (a key whose value is undefined
 * counts as absent, as in JSON), arrays in order.
 */
export function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    return x.every((v, i) => sameValue(v, y[i]));
  }
  const ox = definedEntries(x);
  const oy = new Map(definedEntries(y));
  return ox.length === oy.size && ox.every(([k, v]) => oy.has(k) && sameValue(v, oy.get(k)));
}

function definedEntries(o: object): [string, unknown][] {
  return Object.entries(o).filter(([, v]) => v !== undefined);
}

