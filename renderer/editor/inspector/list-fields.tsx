// List and map fields: chips for lists of strings or numbers (argv, expectStatus, options,
// branches, nonRetryable), toggle chips for a choice of several (edge outcomes), and a
// key/value table for records (headers, env, concurrency).
import { useId, useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { FieldFrame, type FieldProps } from './field.tsx';
import { listValue } from './form-values.ts';

interface ChipsProps<T extends string | number> extends FieldProps<T[]> {
  /** Turns typed text into an item, or says why it cannot be one. */
  parse(text: string): { ok: true; item: T } | { ok: false; error: string };
  suggestions?: readonly string[];
  placeholder?: string;
  /** Order matters (argv): chips can be moved. */
  ordered?: boolean;
}

export function ChipsField<T extends string | number>(props: ChipsProps<T>) {
  const { path, label, hint, value, onCommit, optional = true, note, parse, suggestions, placeholder, ordered } = props;
  const id = useId();
  const listId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const items = value ?? [];
  const write = (next: T[]): void => {
    if (next.length === 0 && !optional) return setError('this list needs at least one item');
    setError(onCommit(listValue(next)));
  };
  const add = (): void => {
    if (text.trim() === '') return;
    const parsed = parse(text.trim());
    if (!parsed.ok) return setError(parsed.error);
    setText('');
    write([...items, parsed.item]);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'Enter' || (e.key === ',' && !ordered)) {
      e.preventDefault();
      add();
    } else if (e.key === 'Backspace' && text === '' && items.length > 0) {
      write(items.slice(0, -1));
    }
  };
  const move = (from: number, to: number): void => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    if (item === undefined) return;
    next.splice(to, 0, item);
    write(next);
  };
  return (
    <FieldFrame path={path} label={label} inputId={id} hint={hint ?? 'Enter adds an item; Backspace on an empty box removes the last'} error={error} note={note} required={!optional}>
      <div className="ins-chips" data-testid={`field-${path}`}>
        {items.map((item, i) => (
          <span key={`${i}:${String(item)}`} className="ins-chip">
            {ordered === true && i > 0 ? (
              <button type="button" className="ins-chip-move" aria-label={`Move ${String(item)} left`} onClick={() => move(i, i - 1)}>
                ‹
              </button>
            ) : null}
            <span className="mono">{String(item)}</span>
            <button type="button" className="ins-chip-x" aria-label={`Remove ${String(item)}`} onClick={() => write(items.filter((_, j) => j !== i))}>
              <X size={11} aria-hidden="true" />
            </button>
          </span>
        ))}
        <input
          id={id}
          className="ins-chips-input"
          value={text}
          placeholder={placeholder ?? 'add…'}
          list={suggestions === undefined ? undefined : listId}
          aria-invalid={error !== null}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
          onKeyDown={onKey}
          onBlur={add}
        />
        {suggestions === undefined ? null : (
          <datalist id={listId}>
            {suggestions.filter((s) => !items.some((i) => String(i) === s)).map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        )}
      </div>
    </FieldFrame>
  );
}

export const stringItem = (text: string): { ok: true; item: string } => ({ ok: true, item: text });

/** Toggle chips for a choice of several from a fixed set (an edge's outcomes). */
export function ToggleChipsField<T extends string>(props: FieldProps<T[]> & { options: readonly T[]; warn?: readonly T[] }) {
  const { path, label, hint, value, onCommit, note, options, warn } = props;
  const labelId = useId();
  const [error, setError] = useState<string | null>(null);
  const chosen = value ?? [];
  return (
    <FieldFrame path={path} label={label} labelId={labelId} hint={hint} error={error} note={note}>
      <div className="ins-toggle-chips" role="group" aria-labelledby={labelId} data-testid={`field-${path}`}>
        {options.map((o) => {
          const on = chosen.includes(o);
          return (
            <button
              key={o}
              type="button"
              className="ins-toggle-chip"
              aria-pressed={on}
              data-warn={warn?.includes(o) === true ? true : undefined}
              title={warn?.includes(o) === true ? 'the source step never settles with this outcome' : undefined}
              onClick={() => setError(onCommit(on ? chosen.filter((c) => c !== o) : [...chosen, o]))}
            >
              {o}
            </button>
          );
        })}
      </div>
    </FieldFrame>
  );
}
