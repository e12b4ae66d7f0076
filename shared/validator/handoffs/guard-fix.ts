// The "guard the read" fix: a rewrite of one expression that the validator accepts. Offered where
// such a rewrite exists: a read back through a loop (guard it with `$exists(steps.X.output)`), and
// a read of a step that may not have run but is a branch of a join that has finished before the
// reader (read it from the join's output, `steps.J.output.X`, guarded: it lacks X when X did not
// arrive). A step that may still be running beside the reader has no such rewrite: guarding it
// would make the result depend on timing.
import type { ExpressionSite } from '../expressions/expression-sites.ts';
import type { AnalyzedRead, ReadScope } from '../expressions/read-analysis.ts';
import { outputSchemaOf } from '../schema/implicit-outputs.ts';
import { walkSchema } from '../schema/schema-path.ts';
import type { GuardFix } from './handoff-types.ts';

/**
 * @param reads every read of the site's expression (all reads of the source are rerouted together).
 */
export function guardFixOf(scope: ReadScope, site: ExpressionSite, read: AnalyzedRead, reads: readonly AnalyzedRead[]): GuardFix | undefined {
  if (read.source.kind !== 'step' || read.ref.root !== 'steps' || read.finding === undefined) return undefined;
  const { graph } = scope;
  const x = read.source.node;
  const xId = graph.step(x).id;
  const otherwise = site.condition ? 'false' : 'null';
  if (read.finding.code === 'unguarded-loop-read') {
    return {
      kind: 'guard',
      offset: site.offset,
      before: site.text,
      after: `$exists(steps.${xId}.output) ? (${site.text}) : ${otherwise}`,
      label: `Guard with $exists(steps.${xId}.output)`,
    };
  }
  if (read.finding.code !== 'missing-dependency' || site.reader < 0 || x === site.reader) return undefined;
  const join = joinCarrying(scope, x, site.reader);
  if (join === undefined) return undefined;
  const joinId = graph.step(join).id;
  // `steps.X.output…` becomes `steps.J.output.X…` (a join's output holds each arrived branch's
  // output under its id), last read first so offsets hold. Any other read of X: no rewrite.
  const own = reads.filter((r) => r.ref.root === 'steps' && r.source.kind === 'step' && r.source.node === x);
  const tail = new RegExp(`^\\s*\\.\\s*${xId}\\s*\\.\\s*output(?![A-Za-z0-9_])`);
  const spans: { at: number; length: number }[] = [];
  for (const r of own) {
    const p = r.ref.position;
    const m = p === undefined || site.text.slice(p - 'steps'.length, p) !== 'steps' ? null : tail.exec(site.text.slice(p));
    if (p === undefined || m === null) return undefined;
    spans.push({ at: p, length: m[0].length });
  }
  let text = site.text;
  for (const { at, length } of spans.sort((a, b) => b.at - a.at)) text = `${text.slice(0, at)}.${joinId}.output.${xId}${text.slice(at + length)}`;
  return {
    kind: 'guard',
    offset: site.offset,
    before: site.text,
    after: `$exists(steps.${joinId}.output.${xId}) ? (${text}) : ${otherwise}`,
    via: joinId,
    label: `Guard with $exists, read through join "${joinId}"`,
  };
}

/** A join that `x` leads into, which has finished with an output before `reader`, and whose output may hold x. */
function joinCarrying(scope: ReadScope, x: number, reader: number): number | undefined {
  const { graph } = scope;
  for (const e of graph.out[x] ?? []) {
    const j = e.to;
    if (graph.step(j).kind !== 'join' || !scope.before.has(reader, j)) continue;
    const schema = outputSchemaOf(graph, j);
    if (schema !== undefined && walkSchema(schema, [graph.step(x).id]).status === 'undeclared') continue;
    return j;
  }
  return undefined;
}
