// An id: checked as typed, written on Enter or when the field is left (a rename changes edges
// and references, so it should not happen once per keystroke). Escape puts the old id back.
import { useId, useState, type ReactNode } from 'react';
import { FieldFrame } from './field.tsx';

export interface IdFieldProps {
  path: string;
  label: string;
  value: string;
  validate(next: string): string | null;
  onCommit(next: string): string | null;
  hint?: string;
  note?: ReactNode;
}

export function IdField({ path, label, value, validate, onCommit, hint, note }: IdFieldProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  const [error, setError] = useState<string | null>(null);
  if (seen !== value) {
    setSeen(value);
    setText(value);
    setError(null);
  }
  const apply = (): void => {
    if (text === value) return setError(null);
    const problem = validate(text) ?? onCommit(text);
    setError(problem);
  };
  return (
    <FieldFrame path={path} label={label} inputId={id} hint={hint} error={error} note={note} required>
      <input
        id={id}
        className="ins-input mono"
        value={text}
        spellCheck={false}
        aria-invalid={error !== null}
        data-testid={`field-${path}`}
        onChange={(e) => {
          setText(e.target.value);
          setError(e.target.value === value ? null : validate(e.target.value));
        }}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
          if (e.key === 'Escape') {
            setText(value);
            setError(null);
          }
        }}
      />
    </FieldFrame>
  );
}
