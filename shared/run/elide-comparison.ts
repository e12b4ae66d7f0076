// Leaving large values out of a comparison of two runs (`GET /api/compare`), as RunDetail leaves
// them out of `GET /api/runs/:id`: a side's input or output, or a differing field's value, over the
// limit becomes an ElidedValue stub whose path reads it back from that side's run through
// `GET /api/runs/:id/value`; a list of differing fields keeps its first entries, and its total
// says how many there are. Pure: compare-runs.ts calls it with the paths of the values it shows.
import type { ComparedStepSide, FieldDifference } from '../api/run-comparison.ts';
import { elideOver } from './elide-values.ts';

/** How much of a comparison is sent: values up to `valueLimit` bytes of JSON, lists of up to `fieldLimit` fields. */
export interface ComparisonCut {
  valueLimit: number;
  fieldLimit: number;
}

/** Where the values of one side sit in its run: the run input, and the deciding attempt of a step. */
export type ValueBase = string | undefined;

/**
 * The side with its input and output stubbed when over the limit; `base` is its deciding
 * attempt's path (`steps.verify.attempts[1]`).
 *
 * @example
 * elideSide(side, 'steps.fetch.attempts[0]', cut).output; // { $weft: 'elided', path: 'steps.fetch.attempts[0].output', ... }
 */
export function elideSide(side: ComparedStepSide | null, base: ValueBase, cut: ComparisonCut): ComparedStepSide | null {
  if (side === null || base === undefined) return side;
  const { input, output, ...rest } = side;
  return {
    ...rest,
    ...(input === undefined ? {} : { input: elideOver(input, `${base}.input`, cut.valueLimit) }),
    ...(output === undefined ? {} : { output: elideOver(output, `${base}.output`, cut.valueLimit) }),
  };
}

/**
 * The first `fieldLimit` fields, each value over the limit stubbed: `a` at `baseA` plus the field's
 * path in run A, `b` likewise in run B (`run.input` + `$.items[3]` → `run.input.items[3]`).
 *
 * @example
 * cutFields([{ path: '$.text', a: big, b: 'x' }], 'run.input', 'run.input', cut); // [{ path: '$.text', a: { $weft: 'elided', path: 'run.input.text', ... }, b: 'x' }]
 */
export function cutFields(fields: readonly FieldDifference[], baseA: ValueBase, baseB: ValueBase, cut: ComparisonCut): FieldDifference[] {
  return fields.slice(0, cut.fieldLimit).map((f) => ({
    path: f.path,
    ...(f.a === undefined ? {} : { a: baseA === undefined ? f.a : elideOver(f.a, valuePathOf(baseA, f.path), cut.valueLimit) }),
    ...(f.b === undefined ? {} : { b: baseB === undefined ? f.b : elideOver(f.b, valuePathOf(baseB, f.path), cut.valueLimit) }),
  }));
}

/** The value path of a field: the JSON path's segments (`$.a[1]["b c"]`) written after the base. */
const valuePathOf = (base: string, jsonPath: string): string => `${base}${jsonPath.slice(1)}`;
