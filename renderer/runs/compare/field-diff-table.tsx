// A field-level JSON diff as a table: each differing field's JSON path and its value in A and B.
import type { FieldDifference } from '../../../shared/api/run-comparison.ts';

/** Longest value shown inline; the title has it whole. */
const MAX_SHOWN = 200;

const shown = (v: unknown): string => {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
};

export function FieldDiffTable({ fields, label, caption }: { fields: readonly FieldDifference[]; label: string; caption?: string }) {
  return (
    <table className="compare-fields" aria-label={label} data-testid="field-diff">
      {caption === undefined ? null : <caption>{caption}</caption>}
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">A</th>
          <th scope="col">B</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr key={f.path} data-testid="field-diff-row" data-path={f.path}>
            <td className="mono">{f.path}</td>
            <td className="mono compare-value" data-absent={f.a === undefined || undefined} title={f.a === undefined ? undefined : JSON.stringify(f.a)}>
              {shown(f.a)}
            </td>
            <td className="mono compare-value" data-absent={f.b === undefined || undefined} title={f.b === undefined ? undefined : JSON.stringify(f.b)}>
              {shown(f.b)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
