// Two runs side by side (issue 13): the path each took, the first step where they part (in path,
// input, outcome or output, with the fields that differ), each step's timing, and the diff of
// their versions. Pure, from two RunDetails, so the CLI, the server and the app compute the same
// thing. The JSON shape is shared/api/run-comparison.ts; the rules are in docs/compare.md.
import type { ComparedRun, ComparedStep, ComparedStepSide, DifferenceKind, FieldDifference, FirstDifference, RunComparison } from '../api/run-comparison.ts';
import type { RunDetail } from '../api/run-detail.ts';
import { segmentText } from '../api/value-path.ts';
import { diffWorkflows } from '../definition/workflow-diff.ts';
import type { Workflow } from '../definition/workflow-schema.ts';
import { comparedStepSides, sideLabel, type SideWithAttempt } from './compared-step-side.ts';
import { cutFields, elideSide, type ComparisonCut } from './elide-comparison.ts';
import { jsonDiff } from './json-diff.ts';
import { stepOrder, type OrderGraph } from './step-order.ts';

/** Options of compareRuns: `cut` leaves large values out (what `GET /api/compare` sends). */
export interface CompareOptions {
  cut?: ComparisonCut;
}

/**
 * Compares run `a` with run `b`. The definitions (each run's version) order the steps and give the
 * version diff; without them, each RunDetail's `definition` is used, else its steps and edge
 * decisions. Steps are compared in a topological order of both versions' graphs together; at each
 * step the kinds are looked for in this order: `path` (reached in one run only, activated a
 * different number of times, or settled alike but left by edges to other steps), `input`,
 * `candidate` (an agent step's chosen executor, docs/routing.md), `outcome` (another outcome or
 * state), `output`. Each run's `route` lists the steps it reached in
 * the order it first reached them. With `options.cut`, values over its limit are ElidedValue stubs
 * addressed in their run, and lists of fields are cut (elide-comparison.ts).
 *
 * @example
 * const c = compareRuns(await api.run(a), await api.run(b));
 * c.firstDifference; // { stepId: 'pick', kind: 'path', why: 'A took pick→big, B took pick→small' }
 */
export function compareRuns(a: RunDetail, b: RunDetail, definitions?: { a: Workflow; b: Workflow }, options: CompareOptions = {}): RunComparison {
  const defs = definitions ?? (a.definition !== undefined && b.definition !== undefined ? { a: a.definition, b: b.definition } : undefined);
  const order = stepOrder([graphOf(a, defs?.a), graphOf(b, defs?.b)]);
  const sidesA = comparedStepSides(a);
  const sidesB = comparedStepSides(b);
  const cut = options.cut;
  const compared = order.map((id) => {
    const sa = sidesA.get(id);
    const sb = sidesB.get(id);
    const both = (sa?.side.ran ?? false) && (sb?.side.ran ?? false);
    const input = both ? jsonDiff(sa?.side.input, sb?.side.input) : [];
    const output = both ? jsonDiff(sa?.side.output, sb?.side.output) : [];
    const found = differences(id, sa?.side ?? null, sb?.side ?? null, input, output);
    const bases = { a: attemptPath(id, sa), b: attemptPath(id, sb) };
    const step: ComparedStep = {
      id,
      a: cut === undefined ? (sa?.side ?? null) : elideSide(sa?.side ?? null, bases.a, cut),
      b: cut === undefined ? (sb?.side ?? null) : elideSide(sb?.side ?? null, bases.b, cut),
      differs: found.map((d) => d.kind),
      fields: {
        input: cut === undefined ? input : cutFields(input, inside(bases.a, 'input'), inside(bases.b, 'input'), cut),
        output: cut === undefined ? output : cutFields(output, inside(bases.a, 'output'), inside(bases.b, 'output'), cut),
        inputTotal: input.length,
        outputTotal: output.length,
      },
    };
    return { step, first: found[0], bases };
  });
  const at = compared.find((c) => c.first !== undefined);
  const firstDifference = at?.first === undefined ? null : cutDifference(at.first, at.bases, cut);
  const steps = compared.map((c) => c.step);
  const inputDiff = jsonDiff(a.run.input, b.run.input);
  const differentVersions = a.run.workflowId !== b.run.workflowId || a.run.version !== b.run.version;
  return {
    runs: [header(a), header(b)],
    firstDifference,
    steps,
    route: { a: routeOf(order, sidesA), b: routeOf(order, sidesB) },
    inputDiff: cut === undefined ? inputDiff : cutFields(inputDiff, 'run.input', 'run.input', cut),
    inputDiffTotal: inputDiff.length,
    versionDiff: differentVersions && defs !== undefined ? diffWorkflows(withoutLayout(defs.a), withoutLayout(defs.b)) : null,
    same: firstDifference === null,
  };
}

/** The first difference with its fields cut and stubbed as the step's are. */
function cutDifference(d: FirstDifference, bases: { a: string | undefined; b: string | undefined }, cut: ComparisonCut | undefined): FirstDifference {
  if (cut === undefined || d.fields === undefined || (d.kind !== 'input' && d.kind !== 'output')) return d;
  return { ...d, paths: (d.paths ?? []).slice(0, cut.fieldLimit), fields: cutFields(d.fields, inside(bases.a, d.kind), inside(bases.b, d.kind), cut) };
}

/** The path of an attempt's input or output. */
const inside = (attempt: string | undefined, value: 'input' | 'output'): string | undefined => (attempt === undefined ? undefined : `${attempt}.${value}`);

/** Where a side's deciding attempt is in its run (`steps.verify.attempts[1]`), for the paths of its stubs. */
function attemptPath(stepId: string, s: SideWithAttempt | undefined): string | undefined {
  return s?.attemptIndex === undefined ? undefined : `steps${segmentText(stepId)}.attempts[${s.attemptIndex}]`;
}

/**
 * The steps the run reached, in the order it first reached them: by its first attempt's start
 * (the engine's clock, in ms), ties in the comparison order. A step reached without an attempt (an
 * operator's skip, reused evidence, a step due now) has no time of its own: it comes right after
 * the steps before it in the comparison order.
 */
function routeOf(order: readonly string[], sides: ReadonlyMap<string, SideWithAttempt>): string[] {
  let latest = Number.NEGATIVE_INFINITY;
  const reached: { id: string; at: number; rank: number }[] = [];
  order.forEach((id, rank) => {
    const side = sides.get(id)?.side;
    if (side === undefined || !side.reached) return;
    const at = side.startedAtMs ?? latest;
    if (side.startedAtMs !== null) latest = Math.max(latest, side.startedAtMs);
    reached.push({ id, at, rank });
  });
  return reached.sort((x, y) => (x.at === y.at ? x.rank - y.rank : x.at - y.at)).map((r) => r.id);
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

/** Each way the step differs, in DIFFERENCE_KINDS order, described; `input` and `output` are its field diffs. */
function differences(stepId: string, a: ComparedStepSide | null, b: ComparedStepSide | null, input: FieldDifference[], output: FieldDifference[]): FirstDifference[] {
  const reachedA = a?.reached ?? false;
  const reachedB = b?.reached ?? false;
  if (reachedA !== reachedB) return [{ stepId, kind: 'path', why: `"${stepId}" ran in ${reachedA ? 'A' : 'B'} only` }];
  if (a === null || b === null || !reachedA) return [];
  const found: FirstDifference[] = [];
  const settledAlike = (a.outcome ?? a.state) === (b.outcome ?? b.state) && a.state === b.state;
  if (a.activations !== b.activations) {
    found.push({ stepId, kind: 'path', why: `"${stepId}" was activated ${times(a.activations)} in A, ${times(b.activations)} in B` });
  } else if (settledAlike && a.next.join('\n') !== b.next.join('\n')) {
    // Edges that follow from another outcome (a failure takes no success edge) are that outcome's difference.
    found.push({ stepId, kind: 'path', why: `A took ${route(stepId, a.next)}, B took ${route(stepId, b.next)}` });
  }
  if (input.length > 0) found.push(fields(stepId, 'input', input));
  if (a.candidate !== b.candidate) {
    found.push({ stepId, kind: 'candidate', why: `"${stepId}" ran on ${a.candidate ?? 'no candidate'} in A, on ${b.candidate ?? 'no candidate'} in B` });
  }
  if (!settledAlike) {
    found.push({ stepId, kind: 'outcome', why: `"${stepId}" ${said(a)} in A, ${said(b)} in B` });
  }
  if (output.length > 0) found.push(fields(stepId, 'output', output));
  return found;
}

function fields(stepId: string, kind: Extract<DifferenceKind, 'input' | 'output'>, diff: FieldDifference[]): FirstDifference {
  const n = diff.length;
  return { stepId, kind, paths: diff.map((d) => d.path), fields: diff, total: n, why: `the ${kind} of "${stepId}" differs in ${n} ${n === 1 ? 'field' : 'fields'}` };
}

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

const route = (from: string, next: readonly string[]): string =>
  next.length === 0 ? `no edge out of ${from}` : next.map((to) => `${from}→${to}`).join(' and ');

/**
 * "succeeded", "failed (now compensated)" when the state moved on from the outcome, "is running",
 * or what a step the latest pass went past did ("failed then skipped", "withdrawn").
 */
function said(s: ComparedStepSide): string {
  if (s.state === 'skipped' || s.state === 'blocked') return sideLabel(s);
  return s.outcome === null ? `is ${s.state}` : s.outcome === s.state ? s.outcome : `${s.outcome} (now ${s.state})`;
}

function withoutLayout(w: Workflow): Workflow {
  const { layout: _layout, ...rest } = w;
  return rest;
}
