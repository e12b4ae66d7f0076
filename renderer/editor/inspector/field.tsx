// The frame of one form field: label, control, hint, error. `data-field` is the field's JSON
// path inside its element, which is how a problem's path finds it.
import type { ReactNode } from 'react';

export interface FieldFrameProps {
  path: string;
  label: string;
  /** The id of the control the label names; omit for a group of controls (labelled by `labelId`). */
  inputId?: string;
  labelId?: string;
  hint?: string | undefined;
  error?: string | null | undefined;
  note?: ReactNode;
  required?: boolean;
  /** Lays the label and a small control on one line (toggles). */
  inline?: boolean;
  children: ReactNode;
}

export function FieldFrame({ path, label, inputId, labelId, hint, error, note, required, inline, children }: FieldFrameProps) {
  const errorId = `${inputId ?? labelId ?? path}-error`;
  return (
    <div className={inline === true ? 'ins-field ins-field-inline' : 'ins-field'} data-field={path} data-invalid={error != null ? true : undefined}>
      <label className="ins-label" htmlFor={inputId} id={labelId}>
        {label}
        {required === true ? (
          <span className="ins-required" aria-label="required">
            *
          </span>
        ) : null}
      </label>
      <div className="ins-control">{children}</div>
      {error != null ? (
        <div className="ins-error" id={errorId} role="alert">
          {error}
        </div>
      ) : hint !== undefined ? (
        <div className="ins-hint">{hint}</div>
      ) : null}
      {note !== undefined ? <div className="ins-note">{note}</div> : null}
    </div>
  );
}

/** Common props of the inspector's fields. `onCommit` writes the value and returns why it could not. */
export interface FieldProps<T> {
  path: string;
  label: string;
  hint?: string | undefined;
  value: T | undefined;
  onCommit(value: T | undefined): string | null;
  /** Whether clearing the field removes it (no empty strings are left for optional fields). */
  optional?: boolean;
  note?: ReactNode;
}
