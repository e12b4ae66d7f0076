// Two runs side by side (issue 13): the path each took, the first step where they part (in path,
// input, outcome or output, with the fields that differ), each step's timing, and the diff of
// their versions. Pure, from two RunDetails, so the CLI, the server and the app compute the same
// thing. The JSON shape is shared/api/run-comparison.ts; the rules are in docs/compare.md.
import type { ComparedRun, ComparedStep, ComparedStepSide, DifferenceKind, FieldDifference, FirstDifference, RunComparison } from '../api/run-comparison.ts';
import type { RunDetail } from '../api/run-detail.ts';
import { diffWorkflows } from '../definition/workflow-diff.ts';
import type { Workflow } from '../definition/workflow-schema.ts';
import { comparedStepSides } from './compared-step-side.ts';
import { jsonDiff } from './json-diff.ts';
import { stepOrder, type OrderGraph } from './step-order.ts';

/**
 * Compares run `a` with run `b`. The definitions (each run's version) order the steps and give the
 * version diff; without them, each RunDetail's `definition` is used, else its steps and edge
 * decisions. Steps are compared in a topological order of both versions' graphs together; at each
 * step the kinds are looked for in this order: `path` (reached in one run only, activated a
 * different number of times, or settled alike but left by edges to other steps), `input`,
 * `outcome` (another outcome or state), `output`.
 *
 * @example
 * const c = compareRuns(await api.run(a), await api.run(b));
 * c.firstDifference; // { stepId: 'pick', kind: 'path', why: 'A took pick→big, B took pick→small' }
 */
export function compareRuns(a: RunDetail, b: RunDetail, definitions?: { a: Workflow; b: Workflow }): RunComparison {
  const defs = definitions ?? (a.definition !== undefined && b.definition !== undefined ? { a: a.definition, b: b.definition } : undefined);
  const order = stepOrder([graphOf(a, defs?.a), graphOf(b, defs?.b)]);
  const sidesA = comparedStepSides(a);
  const sidesB = comparedStepSides(b);
  const steps = order.map((id): ComparedStep & { found: FirstDifference | undefined } => {
    const sa = sidesA.get(id) ?? null;
    const sb = sidesB.get(id) ?? null;
    const found = differences(id, sa, sb);
    return { id, a: sa, b: sb, differs: found.map((d) => d.kind), found: found[0] };
  });
  const firstDifference = steps.find((s) => s.found !== undefined)?.found ?? null;
  const reached = (side: 'a' | 'b'): string[] => steps.filter((s) => (s[side]?.activations ?? 0) > 0).map((s) => s.id);
  const differentVersions = a.run.workflowId !== b.run.workflowId || a.run.version !== b.run.version;
  return {
    runs: [header(a), header(b)],
    firstDifference,
    steps: steps.map(({ found: _found, ...step }) => step),
    route: { a: reached('a'), b: reached('b') },
    inputDiff: jsonDiff(a.run.input, b.run.input),
    versionDiff: differentVersions && defs !== undefined ? diffWorkflows(withoutLayout(defs.a), withoutLayout(defs.b)) : null,
    same: firstDifference === null,
  };
}

function header(r: RunDetail): ComparedRun {
  const { id, workflowId, version, state, inputRevision, createdAtMs, updatedAtMs } = r.run;
  return { id, workflowId, version, state, inputRevision, createdAtMs, updatedAtMs };
}

/** The run's graph: its definition's, else the steps it lists and the edges it decided. */
function graphOf(r: RunDetail, def: Workflow | undefined): OrderGraph {
  const steps = r.steps.map((s) => s.id);
  if (def === undefined) return { steps, edges: r.edges };
  return { steps: [...def.steps.map((s) => s.id), ...steps], edges: def.edges };
}

/** Each way the step differs, in DIFFERENCE_KINDS order, described. */
function differences(stepId: string, a: ComparedStepSide | null, b: ComparedStepSide | null): FirstDifference[] {
  const ranA = (a?.activations ?? 0) > 0;
  const ranB = (b?.activations ?? 0) > 0;
  if (ranA !== ranB) return [{ stepId, kind: 'path', why: `"${stepId}" ran in ${ranA ? 'A' : 'B'} only` }];
  if (a === null || b === null || !ranA) return [];
  const found: FirstDifference[] = [];
  const settledAlike = (a.outcome ?? a.state) === (b.outcome ?? b.state) && a.state === b.state;
  if (a.activations !== b.activations) {
    found.push({ stepId, kind: 'path', why: `"${stepId}" was activated ${times(a.activations)} in A, ${times(b.activations)} in B` });
  } else if (settledAlike && a.next.join('\n') !== b.next.join('\n')) {
    // Edges that follow from another outcome (a failure takes no success edge) are that outcome's difference.
    found.push({ stepId, kind: 'path', why: `A took ${route(stepId, a.next)}, B took ${route(stepId, b.next)}` });
  }
  const input = jsonDiff(a.input, b.input);
  if (input.length > 0) found.push(fields(stepId, 'input', input));
  if (!settledAlike) {
    found.push({ stepId, kind: 'outcome', why: `"${stepId}" ${said(a)} in A, ${said(b)} in B` });
  }
  const output = jsonDiff(a.output, b.output);
  if (output.length > 0) found.push(fields(stepId, 'output', output));
  return found;
}

function fields(stepId: string, kind: Extract<DifferenceKind, 'input' | 'output'>, diff: FieldDifference[]): FirstDifference {
  const n = diff.length;
  return { stepId, kind, paths: diff.map((d) => d.path), fields: diff, why: `the ${kind} of "${stepId}" differs in ${n} ${n === 1 ? 'field' : 'fields'}` };
}

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

const route = (from: string, next: readonly string[]): string =>
  next.length === 0 ? `no edge out of ${from}` : next.map((to) => `${from}→${to}`).join(' and ');

/** "succeeded", "failed (now compensated)" when the state moved on from the outcome, or "is running". */
const said = (s: ComparedStepSide): string => (s.outcome === null ? `is ${s.state}` : s.outcome === s.state ? s.outcome : `${s.outcome} (now ${s.state})`);

function withoutLayout(w: Workflow): Workflow {
  const { layout: _layout, ...rest } = w;
  return rest;
}
