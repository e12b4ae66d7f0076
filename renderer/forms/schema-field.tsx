// One field of a SchemaForm, drawn by its kind: text (with the input type of its format), number,
// checkbox, select, a list editor of scalars, a fieldset of nested fields, or JSON text.
import { useId } from 'react';
import { Plus, X } from 'lucide-react';
import type { Draft } from './form-draft.ts';
import type { FieldSpec, ScalarField } from './form-spec.ts';
import { LazyCodeField as CodeField } from '../code/lazy-code-field.tsx';

export interface FieldViewProps {
  field: FieldSpec;
  draft: Draft | undefined;
  /** The field's JSON path, `$.address.city`; its test id is `field-address.city`. */
  path: string;
  onChange(draft: Draft): void;
  /** The message to show at a path now (undefined: none, or not yet). */
  errorAt(path: string): string | undefined;
  touch(path: string): void;
}

export function FieldView({ field, draft, path, onChange, errorAt, touch }: FieldViewProps) {
  const id = useId();
  const error = errorAt(path);
  const testId = `field-${path.slice(2)}`;
  const hint = field.description !== undefined ? <small className="schema-hint" id={`${id}-hint`}>{field.description}</small> : null;
  const message = error !== undefined ? (
    <small className="form-error" id={`${id}-error`} data-testid={`${testId}-error`}>
      {error}
    </small>
  ) : null;
  const describedBy = [field.description !== undefined ? `${id}-hint` : '', error !== undefined ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const title = (
    <span className="schema-label">
      {field.label}
      {field.required ? (
        <abbr className="required-mark" title="required">
          *
        </abbr>
      ) : null}
    </span>
  );

  if (field.kind === 'object') {
    const value = typeof draft === 'object' && !Array.isArray(draft) ? draft : {};
    return (
      <fieldset className="schema-fieldset" data-testid={testId}>
        <legend>{title}</legend>
        {hint}
        {field.fields.map((f) => (
          <FieldView key={f.key} field={f} draft={value[f.key]} path={`${path}.${f.key}`} onChange={(d) => onChange({ ...value, [f.key]: d })} errorAt={errorAt} touch={touch} />
        ))}
        {message}
      </fieldset>
    );
  }
  if (field.kind === 'boolean') {
    return (
      <div className="schema-field">
        <label className="schema-check">
          <input type="checkbox" checked={draft === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={describedBy} data-testid={testId} />
          {title}
        </label>
        {hint}
      </div>
    );
  }
  if (field.kind === 'list') {
    const items = Array.isArray(draft) ? draft.map((d) => (typeof d === 'string' ? d : '')) : [];
    // The list's own message (too few items), else the first item's.
    const listMessage = error ?? items.map((_, i) => errorAt(`${path}[${i}]`)).find((m) => m !== undefined);
    return (
      <fieldset className="schema-field schema-list" data-testid={testId} aria-describedby={describedBy}>
        <legend>{title}</legend>
        {hint}
        {items.map((item, i) => (
          <div className="schema-list-row" key={i}>
            <ScalarInput
              field={field.item}
              value={item}
              label={`${field.label} ${i + 1}`}
              invalid={errorAt(`${path}[${i}]`) !== undefined}
              onChange={(v) => onChange(items.map((x, j) => (j === i ? v : x)))}
              onBlur={() => touch(`${path}[${i}]`)}
              testId={`${testId}-${i}`}
            />
            <button type="button" className="icon-button" aria-label={`remove ${field.label} ${i + 1}`} onClick={() => onChange(items.filter((_, j) => j !== i))}>
              <X size={14} aria-hidden="true" />
            </button>
          </div>
        ))}
        <div>
          <button type="button" className="button schema-add" onClick={() => onChange([...items, ''])} data-testid={`${testId}-add`}>
            <Plus size={13} aria-hidden="true" /> Add
          </button>
        </div>
        {listMessage !== undefined ? (
          <small className="form-error" data-testid={`${testId}-error`}>
            {listMessage}
          </small>
        ) : null}
      </fieldset>
    );
  }
  const text = typeof draft === 'string' ? draft : '';
  return (
    <div className="schema-field">
      <label htmlFor={id}>{title}</label>
      {field.kind === 'json' ? (
        <CodeField value={text} onChange={onChange} mode="json" label={field.label} testId={testId} onBlur={() => touch(path)} />
      ) : (
        <ScalarInput field={field} value={text} id={id} label={field.label} invalid={error !== undefined} describedBy={describedBy} onChange={onChange} onBlur={() => touch(path)} testId={testId} />
      )}
      {hint}
      {message}
    </div>
  );
}

interface ScalarInputProps {
  field: ScalarField;
  value: string;
  label: string;
  invalid: boolean;
  onChange(value: string): void;
  onBlur(): void;
  testId: string;
  id?: string;
  describedBy?: string | undefined;
}

function ScalarInput({ field, value, label, invalid, onChange, onBlur, testId, id, describedBy }: ScalarInputProps) {
  const common = { id, className: 'text-input', 'aria-invalid': invalid, 'aria-describedby': describedBy, 'data-testid': testId, onBlur, ...(id === undefined ? { 'aria-label': label } : {}) };
  if (field.kind === 'enum' || field.kind === 'boolean') {
    const options = field.kind === 'enum' ? field.options : [true, false];
    return (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{field.required ? 'choose…' : '—'}</option>
        {options.map((o) => (
          <option key={JSON.stringify(o)} value={field.kind === 'enum' ? JSON.stringify(o) : String(o)}>
            {o === null ? 'null' : String(o)}
          </option>
        ))}
      </select>
    );
  }
  if (field.kind === 'number') {
    const placeholder = [field.minimum ?? field.exclusiveMinimum, field.maximum ?? field.exclusiveMaximum].some((x) => x !== undefined) ? `${field.minimum ?? field.exclusiveMinimum ?? ''}–${field.maximum ?? field.exclusiveMaximum ?? ''}` : field.integer ? 'a whole number' : 'a number';
    return <input {...common} type="text" inputMode={field.integer ? 'numeric' : 'decimal'} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />;
  }
  return <input {...common} type={field.input} value={value} maxLength={field.maxLength} onChange={(e) => onChange(e.target.value)} />;
}
