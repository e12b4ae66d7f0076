// A record as a table of key and value rows (headers, env, concurrency). Rows live in the field
// while typed, so a row with no key yet or a repeated key is shown, not lost; the document gets
// the record once the rows make one.
import { useId, useState } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import { FieldFrame, type FieldProps } from './field.tsx';
import { recordValue } from './form-values.ts';

type Row = [string, string];

interface KeyValueProps<T> extends FieldProps<Record<string, T>> {
  /** The value a row's text stands for, or why it cannot be one. */
  parse(text: string): { ok: true; item: T } | { ok: false; error: string };
  format(item: T): string;
  keyPlaceholder?: string;
  valuePlaceholder?: string;
  mono?: boolean;
}

const rowsOf = <T,>(value: Record<string, T> | undefined, format: (item: T) => string): Row[] => Object.entries(value ?? {}).map(([k, v]) => [k, format(v)]);

export function KeyValueField<T>(props: KeyValueProps<T>) {
  const { path, label, hint, value, onCommit, note, parse, format, keyPlaceholder, valuePlaceholder, mono } = props;
  const labelId = useId();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(value, format));
  const [seen, setSeen] = useState({ value });
  const [error, setError] = useState<string | null>(null);
  if (seen.value !== value) {
    setSeen({ value });
    // The document changed from elsewhere (undo, JSON view): show it, unless the rows already say it.
    const mine = JSON.stringify(rows.filter(([k]) => k.trim() !== ''));
    if (mine !== JSON.stringify(rowsOf(value, format))) setRows(rowsOf(value, format));
  }
  const write = (next: Row[]): void => {
    setRows(next);
    const keys = next.map(([k]) => k.trim()).filter((k) => k !== '');
    const twice = keys.find((k, i) => keys.indexOf(k) !== i);
    if (twice !== undefined) return setError(`"${twice}" appears twice; each key once`);
    const parsed: Array<[string, T]> = [];
    for (const [k, v] of next) {
      if (k.trim() === '') continue;
      const p = parse(v);
      if (!p.ok) return setError(`${k}: ${p.error}`);
      parsed.push([k, p.item]);
    }
    setError(onCommit(recordValue(parsed)));
  };
  return (
    <FieldFrame path={path} label={label} labelId={labelId} hint={hint} error={error} note={note}>
      <div className="ins-kv" role="group" aria-labelledby={labelId} data-testid={`field-${path}`}>
        {rows.map(([k, v], i) => (
          <div className="ins-kv-row" key={i}>
            <input
              className="ins-input mono"
              aria-label={`${label}: key ${i + 1}`}
              value={k}
              placeholder={keyPlaceholder ?? 'key'}
              onChange={(e) => write(rows.map((r, j): Row => (j === i ? [e.target.value, r[1]] : r)))}
            />
            <input
              className={mono === false ? 'ins-input' : 'ins-input mono'}
              aria-label={`${label}: value of ${k === '' ? `row ${i + 1}` : k}`}
              value={v}
              placeholder={valuePlaceholder ?? 'value'}
              onChange={(e) => write(rows.map((r, j): Row => (j === i ? [r[0], e.target.value] : r)))}
            />
            <button type="button" className="ins-icon-button" aria-label={`Remove ${k === '' ? `row ${i + 1}` : k}`} onClick={() => write(rows.filter((_, j) => j !== i))}>
              <Trash2 size={13} aria-hidden="true" />
            </button>
          </div>
        ))}
        <button type="button" className="ins-add" onClick={() => setRows([...rows, ['', '']])}>
          <Plus size={13} aria-hidden="true" /> Add
        </button>
      </div>
    </FieldFrame>
  );
}

export const textItem = (text: string): { ok: true; item: string } => ({ ok: true, item: text });
export const positiveIntItem = (text: string): { ok: true; item: number } | { ok: false; error: string } =>
  /^\d+$/.test(text.trim()) && Number(text) > 0 ? { ok: true, item: Number(text) } : { ok: false, error: `"${text}" is not a whole number above 0` };
