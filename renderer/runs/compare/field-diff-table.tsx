// A field-level JSON diff as a table: each differing field's JSON path and its value in A and B.
// A value the server left out of the comparison (an ElidedValue stub, over COMPARE_VALUE_LIMIT)
// shows its kind and size and opens, under its row, in the JSON view, which reads it from its run
// by the stub's path (`GET /api/runs/:id/value`). When the server listed only the first fields,
// the table says how many more differ.
import { Fragment, useState } from 'react';
import { isElidedValue, type ElidedValue } from '../../../shared/api/elided-value.ts';
import type { FieldDifference } from '../../../shared/api/run-comparison.ts';
import { JsonView } from '../payload/json-view.tsx';
import { formatBytes, formatCount } from '../payload/format-size.ts';

/** Longest value shown inline; the title has it whole. */
const MAX_SHOWN = 200;

const shown = (v: unknown): string => {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
};

interface Props {
  fields: readonly FieldDifference[];
  label: string;
  caption?: string;
  /** How many fields differ, when more than are listed. */
  total?: number;
  /** The runs A and B, to open a value left out of the comparison. */
  runs: { a: string; b: string };
}

type Side = 'a' | 'b';

export function FieldDiffTable({ fields, label, caption, total, runs }: Props) {
  // The open value of each field, by path: which side's value is shown under the row.
  const [open, setOpen] = useState<ReadonlyMap<string, Side>>(() => new Map());
  const toggle = (path: string, side: Side): void => {
    const next = new Map(open);
    if (next.get(path) === side) next.delete(path);
    else next.set(path, side);
    setOpen(next);
  };
  const more = (total ?? fields.length) - fields.length;
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
        {fields.map((f) => {
          const side = open.get(f.path);
          const stub = side === undefined ? undefined : f[side];
          return (
            <Fragment key={f.path}>
              <tr data-testid="field-diff-row" data-path={f.path}>
                <td className="mono">{f.path}</td>
                <ValueCell value={f.a} side="a" open={side === 'a'} onOpen={() => toggle(f.path, 'a')} />
                <ValueCell value={f.b} side="b" open={side === 'b'} onOpen={() => toggle(f.path, 'b')} />
              </tr>
              {side !== undefined && isElidedValue(stub) ? (
                <tr className="compare-open-value" data-testid="field-diff-open">
                  <td colSpan={3}>
                    <JsonView value={stub} runId={runs[side]} valuePath={stub.path} label={`${side.toUpperCase()}: ${f.path}`} testId="field-diff-json" />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
        {more > 0 ? (
          <tr data-testid="field-diff-more">
            <td colSpan={3} className="faint">
              and {more.toLocaleString('en-US')} more {more === 1 ? 'field differs' : 'fields differ'}
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

function ValueCell({ value, side, open, onOpen }: { value: unknown; side: Side; open: boolean; onOpen(): void }) {
  if (isElidedValue(value)) {
    return (
      <td className="mono compare-value" data-elided="true" title={value.preview}>
        <span className="faint">{summary(value)}</span>{' '}
        <button type="button" className="compare-open" aria-expanded={open} data-testid="field-diff-open-value" data-side={side} onClick={onOpen}>
          {open ? 'close' : 'open'}
        </button>
      </td>
    );
  }
  return (
    <td className="mono compare-value" data-absent={value === undefined || undefined} title={value === undefined ? undefined : JSON.stringify(value)}>
      {shown(value)}
    </td>
  );
}

/** "string · 100,000 characters · 98 KB" */
const summary = (stub: ElidedValue): string => `${stub.kind}${stub.count === null ? '' : ` · ${formatCount(stub.count, stub.kind)}`} · ${formatBytes(stub.bytes)}`;
