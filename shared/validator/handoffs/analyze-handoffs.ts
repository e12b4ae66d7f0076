// Builds the data-handoff view of a workflow from the validator's own read analysis
// (expressions/read-analysis.ts): the same expression sites, the same references, the same
// guaranteed-before table, the same findings.
import type { Workflow } from '../../definition/workflow-schema.ts';
import { formatPath } from '../diagnostic.ts';
import { ExpressionCache } from '../expressions/expression-cache.ts';
import { allExpressionSites, WORKFLOW_OUTPUT, type ExpressionSite } from '../expressions/expression-sites.ts';
import { ReadScope, type AnalyzedRead } from '../expressions/read-analysis.ts';
import { WorkflowGraph } from '../graph/workflow-graph.ts';
import { bypassOf } from './bypass.ts';
import { guardFixOf } from './guard-fix.ts';
import type { HandoffFix, HandoffFlow, HandoffProblem, HandoffRead, Handoffs, HandoffSource } from './handoff-types.ts';

let sharedExpressions: ExpressionCache | undefined;

/** Only the reads of one step's expressions (`reader`, a step id): what a run's step detail shows. */
export interface HandoffFocus {
  reader: string;
}

/**
 * What every step, edge and the workflow's output read, and where it comes from. With `focus`,
 * only the expressions of that step are analysed (its own and its out-edges' conditions): its
 * list is the one the whole analysis makes, at a fraction of the cost on a large workflow; the
 * edges list only what flows into it, and the other steps and the workflow's output nothing.
 *
 * @example
 * const h = analyzeHandoffs(workflow);
 * for (const read of h.steps['report'] ?? []) if (read.problem) console.log(read.field, read.problem.code, read.problem.branches);
 * analyzeHandoffs(workflow, undefined, { reader: 'report' }).steps['report']; // the same reads
 */
export function analyzeHandoffs(workflow: Workflow, caches?: { expressions: ExpressionCache }, focus?: HandoffFocus): Handoffs {
  const expressions = caches?.expressions ?? (sharedExpressions ??= new ExpressionCache());
  const graph = new WorkflowGraph(workflow);
  const scope = new ReadScope(graph, workflow);
  // A focus on a step the workflow does not have analyses nothing (null matches no site's reader).
  const only = focus === undefined ? undefined : (graph.indexOf.get(focus.reader) ?? null);
  const out: Handoffs = { steps: {}, edges: {}, workflowOutput: [] };
  for (const step of graph.steps) out.steps[step.id] = [];
  for (const e of graph.edges) out.edges[e.edge.id] = [];
  // Reads of each step's own expressions (not its edges' conditions), for the flows into it.
  const ownReads = new Map<number, HandoffRead[]>();
  const endSteps = graph.steps.map((_, v) => v).filter((v) => graph.step(v).kind === 'end' && graph.reachable[v] === 1);

  for (const site of allExpressionSites(graph, workflow.output)) {
    if (only !== undefined && site.reader !== only) continue;
    const parsed = expressions.parse(site.text);
    if (!parsed.ok) continue; // a syntax error: nothing can be said about its reads
    const analyzed = scope.readsOf(site, parsed.ast, parsed.shape);
    const reads = analyzed
      .map((r) => toHandoffRead(scope, site, r, analyzed, endSteps))
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    if (site.reader === WORKFLOW_OUTPUT) {
      out.workflowOutput.push(...reads);
      continue;
    }
    out.steps[graph.step(site.reader).id]?.push(...reads);
    if (site.edge) {
      const from = site.edge.from;
      out.edges[site.edge.edge.id]?.push(
        ...reads.filter((r) => carriedBy(scope, r.source, from) !== undefined).map((r) => flow(r, 'when', carriedBy(scope, r.source, from) ?? false)),
      );
    } else {
      const list = ownReads.get(site.reader) ?? [];
      list.push(...reads);
      ownReads.set(site.reader, list);
    }
  }
  for (const e of graph.edges) {
    const list = out.edges[e.edge.id];
    for (const r of ownReads.get(e.to) ?? []) {
      const carried = carriedBy(scope, r.source, e.from);
      if (carried !== undefined) list?.push(flow(r, graph.step(e.to).id, carried));
    }
  }
  return out;
}

const flow = (r: HandoffRead, readBy: string, carried: boolean): HandoffFlow => ({ ...r, readBy, carried });

/**
 * Whether a read's source reaches a reader through step `from`: false when it is `from` itself,
 * true when it is a step before `from` (carried through it: certainly, or on some paths, which the
 * read's `guaranteed` tells), undefined otherwise.
 */
function carriedBy(scope: ReadScope, source: HandoffSource, from: number): boolean | undefined {
  if (source.kind !== 'step') return undefined;
  const x = scope.graph.indexOf.get(source.stepId);
  if (x === undefined) return undefined;
  if (x === from) return false;
  return scope.before.has(from, x) || forwardAncestors(scope.graph, from)[x] === 1 ? true : undefined;
}

const ancestorMemo = new WeakMap<WorkflowGraph, Map<number, Uint8Array>>();

/** Steps with a forward path into `v`, memoized per graph (a workflow's edges share their from-steps). */
function forwardAncestors(graph: WorkflowGraph, v: number): Uint8Array {
  let memo = ancestorMemo.get(graph);
  if (memo === undefined) ancestorMemo.set(graph, (memo = new Map()));
  const hit = memo.get(v);
  if (hit) return hit;
  const seen = new Uint8Array(graph.size);
  const queue = [v];
  for (let head = 0; head < queue.length; head++) {
    for (const e of graph.in[queue[head] ?? v] ?? []) {
      if (!e.forward || seen[e.from] === 1) continue;
      seen[e.from] = 1;
      queue.push(e.from);
    }
  }
  memo.set(v, seen);
  return seen;
}

function toHandoffRead(scope: ReadScope, site: ExpressionSite, r: AnalyzedRead, all: readonly AnalyzedRead[], endSteps: readonly number[]): HandoffRead {
  const { graph } = scope;
  const source: HandoffSource = r.source.kind === 'step' ? { kind: 'step', stepId: graph.step(r.source.node).id } : r.source;
  const problem = r.finding ? problemOf(scope, site, r) : undefined;
  return {
    site: siteOf(scope, site),
    ...(r.position === undefined ? {} : { position: r.position }),
    ...(site.edge ? { edgeId: site.edge.edge.id } : {}),
    field: [r.ref.root, ...r.ref.names].join('.'),
    source,
    guaranteed: guaranteedFor(scope, site, r, endSteps),
    guarded: r.ref.root === 'steps' && r.guarded(),
    declared: r.declared,
    ...(problem ? { problem } : {}),
    fixes: fixesOf(scope, site, r, all),
  };
}

function siteOf(scope: ReadScope, site: ExpressionSite): string {
  if (site.reader === WORKFLOW_OUTPUT) return formatPath(site.path);
  if (site.edge) return formatPath(['edges', site.edge.fileIndex, ...site.path]);
  return formatPath(['steps', scope.graph.stepFileIndex[site.reader] ?? 0, ...site.path]);
}

/**
 * The validator's rule, except for the workflow's output, which it exempts (a step on a branch not
 * taken reads as nothing there): this view still says whether the step has run by every end.
 */
function guaranteedFor(scope: ReadScope, site: ExpressionSite, r: AnalyzedRead, endSteps: readonly number[]): boolean {
  if (r.source.kind !== 'step') return r.source.kind !== 'unresolved';
  if (site.reader !== WORKFLOW_OUTPUT) return r.finished;
  const x = r.source.node;
  return endSteps.length > 0 && endSteps.every((end) => end === x || scope.before.has(end, x));
}

function problemOf(scope: ReadScope, site: ExpressionSite, r: AnalyzedRead): HandoffProblem | undefined {
  const f = r.finding;
  if (f === undefined) return undefined;
  const base = { code: f.code, message: f.message, hint: f.hint };
  if (r.source.kind !== 'step' || site.reader === WORKFLOW_OUTPUT) return base;
  const sourceId = scope.graph.step(r.source.node).id;
  if (f.code === 'unguarded-loop-read' && r.loopEdge) return { ...base, branches: [sourceId], edges: [r.loopEdge.edge.id] };
  if (f.code !== 'missing-dependency' || r.source.node === site.reader) return base;
  const bypass = bypassOf(scope.graph, r.source.node, site.reader);
  return { ...base, branches: bypass.steps.length > 0 ? bypass.steps : [sourceId], edges: bypass.edges };
}

function fixesOf(scope: ReadScope, site: ExpressionSite, r: AnalyzedRead, all: readonly AnalyzedRead[]): HandoffFix[] {
  const fixes: HandoffFix[] = [];
  const declare = declareFixOf(scope, r);
  if (declare) fixes.push(declare);
  const guard = guardFixOf(scope, site, r, all);
  if (guard) fixes.push(guard);
  return fixes;
}

/** Offered where the source's schema is the definition's own (not the engine's built-in output of a kind). */
function declareFixOf(scope: ReadScope, r: AnalyzedRead): HandoffFix | undefined {
  if (r.declared !== false || r.undeclaredAt === undefined) return undefined;
  if (r.ref.root === 'input' && scope.workflow.input !== undefined) {
    const names = r.ref.names.slice(0, r.undeclaredAt + 1);
    return { kind: 'declare', target: { kind: 'input' }, names, label: `Declare ${names.join('.')} in the run input` };
  }
  if (r.source.kind !== 'step') return undefined;
  const step = scope.graph.step(r.source.node);
  if (step.output === undefined) return undefined;
  const skip = r.ref.root === 'steps' ? 2 : 0;
  if (r.ref.root === 'steps' && r.ref.names[1] !== 'output') return undefined;
  const names = r.ref.names.slice(skip, r.undeclaredAt + 1);
  if (names.length === 0) return undefined;
  return { kind: 'declare', target: { kind: 'step', stepId: step.id }, names, label: `Declare ${names.join('.')} in ${step.id} output` };
}
