// Pure edits of a workflow document. Each takes a document and returns a new one (structural
// sharing: untouched steps and edges keep their identity, so memoized nodes do not re-render).
// The editor store wraps these; tests call them directly.
import { z } from 'zod';
import { Edge as EdgeSchema, Step as StepSchema, type Edge, type Step, type Workflow } from '../../shared/definition/workflow-schema.ts';
import type { EdgeOutcome, StepKind } from '../../shared/definition/names.ts';
import { newStep } from '../kinds/kind-views.ts';

export interface Point {
  x: number;
  y: number;
}
export type Layout = Record<string, Point>;

/** Whole pixels; a point that already is one is kept as the same object, so nodes that did not move are not rebuilt. */
const round = (p: Point): Point => (Number.isInteger(p.x) && Number.isInteger(p.y) ? p : { x: Math.round(p.x), y: Math.round(p.y) });

/** A fresh id from `base` that no step (or edge) of the document uses: `base`, `base_2`, … */
export function freshId(base: string, taken: ReadonlySet<string>): string {
  const clean = base.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d)/, '_') || 'step';
  if (!taken.has(clean)) return clean;
  const stem = clean.replace(/_\d+$/, '');
  for (let n = 2; ; n++) {
    const candidate = `${stem}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

const stepIds = (doc: Workflow): Set<string> => new Set(doc.steps.map((s) => s.id));
const edgeIds = (doc: Workflow): Set<string> => new Set(doc.edges.map((e) => e.id));

/**
 * The document with `layout` holding a position for every step: `moves` where given, else `base`
 * (what the canvas shows, which may be a spread-out or computed layout rather than the file's),
 * else the file's. Positions are whole pixels so files stay tidy.
 */
export function withPositions(doc: Workflow, base: Layout, moves: Layout): Workflow {
  const layout: Layout = {};
  for (const s of doc.steps) {
    const p = moves[s.id] ?? base[s.id] ?? doc.layout?.[s.id];
    if (p !== undefined) layout[s.id] = round(p);
  }
  return { ...doc, layout };
}

export function addStep(doc: Workflow, kind: StepKind, at: Point, base: Layout): { doc: Workflow; id: string } {
  const id = freshId(kind, stepIds(doc));
  const step = newStep(kind, id);
  const next = { ...doc, steps: [...doc.steps, step] };
  return { doc: withPositions(next, base, { [id]: at }), id };
}

/** The outcomes an edge lists, as an array (`on` absent means succeeded). */
export function outcomesOf(edge: Pick<Edge, 'on'>): EdgeOutcome[] {
  if (edge.on === undefined) return ['succeeded'];
  return typeof edge.on === 'string' ? [edge.on] : [...edge.on];
}

/** `on` as the file writes it: absent for succeeded alone, a string for one outcome, else a list. */
export function onField(outcomes: readonly EdgeOutcome[]): Edge['on'] {
  if (outcomes.length === 0 || (outcomes.length === 1 && outcomes[0] === 'succeeded')) return undefined;
  return outcomes.length === 1 ? outcomes[0] : [...outcomes];
}

export function connect(doc: Workflow, from: string, to: string, outcomes: readonly EdgeOutcome[]): { doc: Workflow; id: string } {
  const id = freshId(`${from}_${to}`, edgeIds(doc));
  const on = onField(outcomes);
  const edge: Edge = { id, from, to, ...(on === undefined ? {} : { on }) };
  return { doc: { ...doc, edges: [...doc.edges, edge] }, id };
}

/** Removes steps (with every edge touching them and their layout) and edges. */
export function removeElements(doc: Workflow, steps: readonly string[], edges: readonly string[]): Workflow {
  if (steps.length === 0 && edges.length === 0) return doc;
  const goneSteps = new Set(steps);
  const goneEdges = new Set(edges);
  const layout = doc.layout === undefined ? undefined : Object.fromEntries(Object.entries(doc.layout).filter(([id]) => !goneSteps.has(id)));
  return {
    ...doc,
    steps: doc.steps.filter((s) => !goneSteps.has(s.id)),
    edges: doc.edges.filter((e) => !goneEdges.has(e.id) && !goneSteps.has(e.from) && !goneSteps.has(e.to)),
    ...(layout === undefined ? {} : { layout }),
  };
}

export function replaceStep(doc: Workflow, id: string, step: Step): Workflow {
  const index = doc.steps.findIndex((s) => s.id === id);
  if (index < 0) return doc;
  const steps = [...doc.steps];
  steps[index] = step;
  if (step.id === id) return { ...doc, steps };
  return renameReferences({ ...doc, steps }, id, step.id);
}

export function replaceEdge(doc: Workflow, id: string, edge: Edge): Workflow {
  const index = doc.edges.findIndex((e) => e.id === id);
  if (index < 0) return doc;
  const edges = [...doc.edges];
  edges[index] = edge;
  return { ...doc, edges };
}

/**
 * After a step id changes: edges, compensations, join branch lists and the layout follow it.
 * Expressions that read `steps.OLD` are left for the validator to point at (rewriting JSONata
 * text behind the author's back would be a surprise).
 */
function renameReferences(doc: Workflow, from: string, to: string): Workflow {
  const steps = doc.steps.map((s): Step => {
    let next = s;
    if (next.compensation === from) next = { ...next, compensation: to };
    if (next.kind === 'join' && next.config?.branches?.includes(from)) {
      next = { ...next, config: { ...next.config, branches: next.config.branches.map((b) => (b === from ? to : b)) } };
    }
    return next;
  });
  const edges = renameEdges(doc.edges, from, to);
  const layout = doc.layout === undefined ? undefined : Object.fromEntries(Object.entries(doc.layout).map(([k, v]) => [k === from ? to : k, v]));
  return { ...doc, steps, edges, ...(layout === undefined ? {} : { layout }) };
}

/**
 * The edges of a renamed step, pointing at its new id. An edge whose id is the one drawing gives
 * it (`from_to`, or `from_to_N` when that was taken) gets the id drawn from the new names; an id
 * the author chose is kept. A new id that another edge holds gets a fresh one, so ids stay unique.
 */
function renameEdges(edges: readonly Edge[], from: string, to: string): Edge[] {
  const touched = (e: Edge): boolean => e.from === from || e.to === from;
  const taken = new Set(edges.filter((e) => !touched(e)).map((e) => e.id));
  const renamed = edges.map((e): Edge | null => (touched(e) ? null : e));
  // Ids the author chose first: they are kept, so they claim their names before a derived one picks.
  const order = [...edges.keys()].sort((a, b) => Number(derivedSuffix(edges[a]) !== null) - Number(derivedSuffix(edges[b]) !== null));
  for (const i of order) {
    const e = edges[i];
    if (e === undefined || !touched(e)) continue;
    const next = { ...e, from: e.from === from ? to : e.from, to: e.to === from ? to : e.to };
    const suffix = derivedSuffix(e);
    const wanted = suffix === null ? e.id : `${next.from}_${next.to}${suffix}`;
    const id = suffix === null || !taken.has(wanted) ? wanted : freshId(`${next.from}_${next.to}`, taken);
    taken.add(id);
    renamed[i] = { ...next, id };
  }
  return renamed.filter((e): e is Edge => e !== null);
}

/** `''` or `'_N'` when the edge's id is the one `connect` draws for its ends; null when the author chose it. */
function derivedSuffix(edge: Edge | undefined): string | null {
  if (edge === undefined) return null;
  const stem = `${edge.from}_${edge.to}`;
  if (edge.id === stem) return '';
  return edge.id.startsWith(stem) && /^_\d+$/.test(edge.id.slice(stem.length)) ? edge.id.slice(stem.length) : null;
}

/** What copy puts on the clipboard: the chosen steps, the edges between them, their positions. */
export interface Clip {
  format: 'weft/clip';
  steps: Step[];
  edges: Edge[];
  layout: Layout;
}

export function copyElements(doc: Workflow, steps: readonly string[], base: Layout): Clip | null {
  const chosen = new Set(steps);
  if (chosen.size === 0) return null;
  const layout: Layout = {};
  for (const id of chosen) {
    const p = doc.layout?.[id] ?? base[id];
    if (p !== undefined) layout[id] = p;
  }
  return {
    format: 'weft/clip',
    steps: doc.steps.filter((s) => chosen.has(s.id)),
    edges: doc.edges.filter((e) => chosen.has(e.from) && chosen.has(e.to)),
    layout,
  };
}

/**
 * Pastes a clip: ids that clash get fresh ones (and the clip's inner edges, compensations and
 * join branches follow the new ids); positions are shifted by `offset`. Returns the new ids.
 */
export function pasteClip(doc: Workflow, clip: Clip, offset: Point, base: Layout): { doc: Workflow; steps: string[]; edges: string[] } {
  const takenSteps = stepIds(doc);
  const takenEdges = edgeIds(doc);
  const rename = new Map<string, string>();
  for (const s of clip.steps) {
    const id = freshId(s.id, takenSteps);
    takenSteps.add(id);
    rename.set(s.id, id);
  }
  const mapped = (id: string): string => rename.get(id) ?? id;
  const steps = clip.steps.map((s): Step => {
    let next: Step = { ...s, id: mapped(s.id) };
    if (next.compensation !== undefined) next = { ...next, compensation: mapped(next.compensation) };
    if (next.kind === 'join' && next.config?.branches !== undefined) next = { ...next, config: { ...next.config, branches: next.config.branches.map(mapped) } };
    return next;
  });
  const edges = clip.edges.map((e): Edge => {
    const id = freshId(e.id === `${e.from}_${e.to}` ? `${mapped(e.from)}_${mapped(e.to)}` : e.id, takenEdges);
    takenEdges.add(id);
    return { ...e, id, from: mapped(e.from), to: mapped(e.to) };
  });
  const moves: Layout = {};
  clip.steps.forEach((s, i) => {
    const p = clip.layout[s.id] ?? { x: i * 40, y: i * 40 };
    moves[mapped(s.id)] = { x: p.x + offset.x, y: p.y + offset.y };
  });
  const next = { ...doc, steps: [...doc.steps, ...steps], edges: [...doc.edges, ...edges] };
  return { doc: withPositions(next, base, moves), steps: steps.map((s) => s.id), edges: edges.map((e) => e.id) };
}

const ClipSchema = z.object({
  format: z.literal('weft/clip'),
  steps: z.array(StepSchema),
  edges: z.array(EdgeSchema),
  layout: z.record(z.string(), z.object({ x: z.number(), y: z.number() })).catch({}),
});

/** Reads a clip back from clipboard text; null when the text is not one. */
export function parseClip(text: string): Clip | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ClipSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
