// A JSON value typed as text (CodeMirror's json mode: colours and syntax errors as you type), with
// the parsed value or the problem handed up on each edit. For inputs, outputs and evidence that
// have no schema the form could draw.
import { useState } from 'react';
import { LazyCodeField as CodeField } from '../code/lazy-code-field.tsx';
import { findJsonProblem, type JsonValue } from '../../shared/api/json-value.ts';

/** What a JSON text holds: a value, nothing (empty text), or the reason it is not JSON. */
export type JsonRead = { kind: 'value'; value: JsonValue } | { kind: 'empty' } | { kind: 'invalid'; message: string };

/** Reads JSON text as the API would take it (finite numbers, at most 64 levels deep). */
export function readJson(text: string): JsonRead {
  if (text.trim() === '') return { kind: 'empty' };
  let value: JsonValue;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  // JSON.parse gives Infinity for 1e999999 and any depth: the API refuses both.
  const problem = findJsonProblem(value);
  if (problem !== undefined) return { kind: 'invalid', message: problem.message };
  return { kind: 'value', value };
}

export function showJson(value: JsonValue | undefined): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

export interface JsonInputProps {
  label: string;
  /** The value shown first (re-mount with a `key` to show another). */
  initial: JsonValue | undefined;
  onChange(read: JsonRead): void;
  testId: string;
  placeholder?: string;
  /** Shown under the field while the text is fine. */
  hint?: string;
}

export function JsonInput({ label, initial, onChange, testId, placeholder, hint }: JsonInputProps) {
  const [text, setText] = useState(() => showJson(initial));
  const read = readJson(text);
  return (
    <div className="json-input">
      <CodeField
        value={text}
        onChange={(t) => {
          setText(t);
          onChange(readJson(t));
        }}
        mode="json"
        label={label}
        testId={testId}
        {...(placeholder === undefined ? {} : { placeholder })}
      />
      {read.kind === 'invalid' ? (
        <small className="form-error" data-testid={`${testId}-error`}>
          {read.message}
        </small>
      ) : hint !== undefined ? (
        <small className="faint">{hint}</small>
      ) : null}
    </div>
  );
}
