// `weft compare` as a person reads it: both runs, the path each took, the first difference (with
// its fields), the version diff when the versions differ, and each step's state and duration.
import type { ComparedStepSide, FieldDifference, RunComparison } from '../../shared/api/run-comparison.ts';
import { diffSummaryLines } from '../../shared/definition/workflow-diff.ts';
import { sideLabel } from '../../shared/run/compared-step-side.ts';

/** Field values longer than this are cut in the text (--json has them whole). */
const MAX_VALUE = 60;

export function formatComparison(c: RunComparison): string {
  const [a, b] = c.runs;
  const lines = [
    `A ${a.id}: ${a.workflowId} v${a.version}, ${a.state}`,
    `B ${b.id}: ${b.workflowId} v${b.version}, ${b.state}`,
    `Path A: ${c.route.a.join(' → ') || '(no step reached)'}`,
    `Path B: ${c.route.b.join(' → ') || '(no step reached)'}`,
  ];
  const d = c.firstDifference;
  if (d === null) lines.push('No difference: the same path, inputs, outcomes and outputs.');
  else {
    lines.push(`First difference at step ${d.stepId} (${d.kind}): ${d.why}`);
    lines.push(...fieldTable(d.fields ?? []).map((l) => `  ${l}`));
    if (d.kind === 'outcome') lines.push(...errorLines(c, d.stepId));
  }
  if (c.versionDiff !== null) {
    lines.push(`Version diff (${a.workflowId} v${a.version} → ${b.workflowId} v${b.version}):`);
    lines.push(...diffSummaryLines(c.versionDiff).map((l) => `  ${l}`));
  }
  lines.push('Steps:', ...table([
    ['step', 'A', 'A time', 'B', 'B time', 'differs'],
    ...c.steps.map((s) => [s.id, said(s.a), duration(s.a), said(s.b), duration(s.b), s.differs.join(', ')]),
  ]).map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

/** Each side's error at the step where the outcomes part, as `  B: code: message`. */
function errorLines(c: RunComparison, stepId: string): string[] {
  const step = c.steps.find((s) => s.id === stepId);
  return (['a', 'b'] as const).flatMap((side) => {
    const error = step?.[side]?.error;
    return error === undefined || error === null ? [] : [`  ${side.toUpperCase()}: ${error.code}: ${oneLine(error.message)}`];
  });
}

const oneLine = (text: string): string => text.replace(/\r?\n/g, '\\n');

function fieldTable(fields: readonly FieldDifference[]): string[] {
  if (fields.length === 0) return [];
  return table([['field', 'A', 'B'], ...fields.map((f) => [f.path, shown(f.a), shown(f.b)])]);
}

/** Columns padded to their widest cell; the last one is not padded. */
function table(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}

const shown = (v: unknown): string => {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
};

/** What the side did (sideLabel); a step the run did not reach in brackets. */
const said = (s: ComparedStepSide | null): string => (s === null || !s.reached ? `(${sideLabel(s)})` : sideLabel(s));

/** The time its attempts took; blank for a step that did not run, "running" while an attempt goes on. */
const duration = (s: ComparedStepSide | null): string => (s === null || !s.ran ? '' : s.durationMs === null ? 'running' : `${s.durationMs} ms`);
