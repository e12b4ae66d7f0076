// Stand-in for the CodeMirror field (renderer/editor/code/code-field.tsx), with the same props
// and handle, so the inspector can be built and used before that field lands. A plain textarea;
// the JSON modes check the text parses and say where it does not.
import { useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { ExpressionScope } from './scope.ts';

export type CodeMode = 'jsonata' | 'template' | 'json' | 'json-schema';

/** A problem found outside the field (the validator) at a range of its text. */
export interface CodeDiagnostic {
  from: number;
  to: number;
  message: string;
  severity: 'error' | 'warning';
}

export interface CodeInputHandle {
  focus(offset?: number): void;
}

export interface CodeInputProps {
  value: string;
  onChange(value: string): void;
  mode: CodeMode;
  scope?: ExpressionScope;
  externalDiagnostics?: readonly CodeDiagnostic[];
  label: string;
  testId: string;
  multiline?: boolean;
  readOnly?: boolean;
  onBlur?(): void;
  ref?: Ref<CodeInputHandle>;
}

/** Why JSON text does not parse (or, for a schema, is not an object); null when it is fine. */
export function jsonTextError(text: string, mode: CodeMode): string | null {
  if (mode !== 'json' && mode !== 'json-schema') return null;
  if (text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (mode === 'json-schema' && (typeof value !== 'object' || value === null || Array.isArray(value))) return 'a JSON Schema is an object, such as {"type": "object"}';
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export function CodeInput(props: CodeInputProps) {
  const { value, onChange, mode, externalDiagnostics, label, testId, multiline, readOnly, onBlur, ref } = props;
  const area = useRef<HTMLTextAreaElement>(null);
  const [parseError, setParseError] = useState<string | null>(() => jsonTextError(value, mode));
  useImperativeHandle(ref, () => ({
    focus(offset) {
      const el = area.current;
      if (el === null) return;
      el.focus();
      if (offset !== undefined) el.setSelectionRange(offset, offset);
    },
  }));
  const lines = multiline === true || mode === 'json' || mode === 'json-schema' ? Math.min(12, Math.max(3, value.split('\n').length)) : 1;
  const problems = [...(parseError === null ? [] : [parseError]), ...(externalDiagnostics ?? []).map((d) => d.message)];
  return (
    <div className="ins-code" data-mode={mode} data-testid={testId}>
      <textarea
        ref={area}
        className="ins-code-text"
        aria-label={label}
        aria-invalid={problems.length > 0}
        spellCheck={false}
        rows={lines}
        value={value}
        readOnly={readOnly}
        onChange={(e) => {
          setParseError(jsonTextError(e.target.value, mode));
          onChange(e.target.value);
        }}
        onBlur={onBlur}
      />
      {problems.map((p) => (
        <div key={p} className="ins-code-problem" role="alert">
          {p}
        </div>
      ))}
    </div>
  );
}
