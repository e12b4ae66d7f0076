// Text, number, duration, select and toggle fields. Each writes on change (one undo step per
// field while typing) and shows, in place, why a value was refused.
import { useId } from 'react';
import { FieldFrame, type FieldProps } from './field.tsx';
import { useDraft } from './use-draft.ts';
import { numberValue, textValue } from './form-values.ts';
import { exactDuration, parseDuration } from './duration.ts';

const asText = (v: string | undefined): string => v ?? '';

export function TextField(props: FieldProps<string> & { multiline?: boolean; placeholder?: string; mono?: boolean; suggestions?: readonly string[] }) {
  const { path, label, hint, value, onCommit, optional = true, note, multiline, placeholder, mono, suggestions } = props;
  const id = useId();
  const listId = useId();
  const draft = useDraft(value, asText, (text, v) => textValue(text, optional) === v);
  const change = (text: string): void => {
    draft.setText(text);
    draft.setError(onCommit(textValue(text, optional)));
  };
  const common = {
    id,
    className: mono === true ? 'ins-input mono' : 'ins-input',
    value: draft.text,
    placeholder,
    'aria-invalid': draft.error !== null,
    'data-testid': `field-${path}`,
  };
  return (
    <FieldFrame path={path} label={label} inputId={id} hint={hint} error={draft.error} note={note} required={!optional}>
      {multiline === true ? (
        <textarea {...common} rows={3} onChange={(e) => change(e.target.value)} />
      ) : (
        <input {...common} type="text" list={suggestions === undefined ? undefined : listId} onChange={(e) => change(e.target.value)} />
      )}
      {suggestions === undefined ? null : (
        <datalist id={listId}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
    </FieldFrame>
  );
}

const numberText = (v: number | undefined): string => (v === undefined ? '' : String(v));

export function NumberField(props: FieldProps<number> & { min?: number | undefined; max?: number | undefined; step?: number; placeholder?: string }) {
  const { path, label, hint, value, onCommit, optional = true, note, min, max, step, placeholder } = props;
  const id = useId();
  const draft = useDraft(value, numberText, (text, v) => {
    const n = numberValue(text);
    return n.ok && n.value === v;
  });
  const change = (text: string): void => {
    draft.setText(text);
    const n = numberValue(text);
    if (!n.ok) return draft.setError(n.error);
    if (n.value === undefined && !optional) return draft.setError('this field is required');
    draft.setError(onCommit(n.value));
  };
  return (
    <FieldFrame path={path} label={label} inputId={id} hint={hint} error={draft.error} note={note} required={!optional}>
      <input
        id={id}
        className="ins-input ins-number"
        type="text"
        inputMode="decimal"
        value={draft.text}
        placeholder={placeholder ?? (min !== undefined && max !== undefined && (step ?? 1) < 1 ? `${min}–${max}` : undefined)}
        aria-invalid={draft.error !== null}
        data-testid={`field-${path}`}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
          e.preventDefault();
          const n = numberValue(draft.text);
          const base = n.ok && n.value !== undefined ? n.value : (min ?? 0);
          const next = base + (e.key === 'ArrowUp' ? 1 : -1) * (step ?? 1);
          change(String(Math.min(max ?? Infinity, Math.max(min ?? -Infinity, next))));
        }}
      />
    </FieldFrame>
  );
}

const durationText = (v: number | undefined): string => (v === undefined ? '' : exactDuration(v));

/** Milliseconds in the document; "30s", "5m", "1h 30m" or a number of ms in the field. */
export function DurationField(props: FieldProps<number> & { placeholder?: string }) {
  const { path, label, hint, value, onCommit, optional = true, note, placeholder } = props;
  const id = useId();
  const draft = useDraft(value, durationText, (text, v) => {
    const d = parseDuration(text);
    return d.ok && d.ms === v;
  });
  const change = (text: string): void => {
    draft.setText(text);
    const d = parseDuration(text);
    if (!d.ok) return draft.setError(d.error);
    if (d.ms === undefined && !optional) return draft.setError('this field is required');
    draft.setError(onCommit(d.ms));
  };
  const readout = value === undefined ? hint : `${value.toLocaleString('en')} ms${hint === undefined ? '' : ` · ${hint}`}`;
  return (
    <FieldFrame path={path} label={label} inputId={id} hint={readout} error={draft.error} note={note} required={!optional}>
      <input
        id={id}
        className="ins-input"
        type="text"
        value={draft.text}
        placeholder={placeholder ?? 'e.g. 30s, 5m, 1h 30m'}
        aria-invalid={draft.error !== null}
        data-testid={`field-${path}`}
        onChange={(e) => change(e.target.value)}
        onBlur={() => {
          // Show the canonical form once the author leaves the field.
          if (draft.error === null && value !== undefined) draft.setText(exactDuration(value));
        }}
      />
    </FieldFrame>
  );
}

export interface Choice {
  value: string;
  label?: string;
}

/** A select; an optional one has an empty choice that removes the field (`unsetLabel` says what that means). */
export function SelectField(props: FieldProps<string> & { options: readonly (string | Choice)[]; unsetLabel?: string }) {
  const { path, label, hint, value, onCommit, optional = true, note, options, unsetLabel } = props;
  const id = useId();
  const draft = useDraft(value, asText, (text, v) => text === (v ?? ''));
  const choices = options.map((o) => (typeof o === 'string' ? { value: o } : o));
  const known = value === undefined || choices.some((c) => c.value === value);
  return (
    <FieldFrame path={path} label={label} inputId={id} hint={hint} error={draft.error} note={note} required={!optional}>
      <select
        id={id}
        className="ins-input ins-select"
        value={value ?? ''}
        data-testid={`field-${path}`}
        onChange={(e) => {
          draft.setText(e.target.value);
          draft.setError(onCommit(e.target.value === '' ? undefined : e.target.value));
        }}
      >
        {optional || value === undefined ? <option value="">{unsetLabel ?? '—'}</option> : null}
        {known ? null : <option value={value}>{value} (unknown)</option>}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label ?? c.value}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A switch. For an optional flag, off removes the key (off is what an absent flag means). */
export function ToggleField(props: FieldProps<boolean>) {
  const { path, label, hint, value, onCommit, optional = true, note } = props;
  const id = useId();
  const draft = useDraft(value, String, () => true);
  const on = value === true;
  return (
    <FieldFrame path={path} label={label} inputId={id} hint={hint} error={draft.error} note={note} inline>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={on}
        className="ins-switch"
        data-testid={`field-${path}`}
        onClick={() => draft.setError(onCommit(on ? (optional ? undefined : false) : true))}
      >
        <span className="ins-switch-knob" aria-hidden="true" />
      </button>
    </FieldFrame>
  );
}
