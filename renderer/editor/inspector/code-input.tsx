// The inspector's code fields: the CodeMirror field (renderer/code/code-field.tsx) with
// the inspector's prop names, and the JSON parse check the JSON tab uses before it applies.
import type { Ref } from 'react';
import { CodeField } from '../../code/code-field.tsx';
import type { ExternalDiagnostic } from '../../code/field-checks.ts';
import type { ExpressionScope } from './scope.ts';

export type CodeMode = 'jsonata' | 'template' | 'json' | 'json-schema';

/** A problem found outside the field (the live validator) at an offset of its text. */
export type CodeDiagnostic = ExternalDiagnostic;

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

/**
 * Whether this page may evaluate generated code (ajv's schema compiler needs it). `weft serve`
 * sends a policy that forbids it, and marks its page with the style nonce it publishes; trying
 * eval to find out would log a policy violation.
 */
function pageCanCompile(): boolean {
  return document.querySelector('meta[property="csp-nonce"]') === null;
}

export function CodeInput(props: CodeInputProps) {
  const { value, onChange, mode, scope, externalDiagnostics, label, testId, multiline, readOnly, onBlur, ref } = props;
  return (
    <CodeField
      value={value}
      onChange={onChange}
      // In the app the page may not compile schemas (its policy forbids eval): the live validator
      // checks JSON Schemas in its worker and its findings arrive as outside diagnostics.
      mode={mode === 'json-schema' && !pageCanCompile() ? 'json' : mode}
      {...(scope === undefined ? {} : { scope })}
      {...(externalDiagnostics === undefined ? {} : { externalDiagnostics })}
      label={label}
      testId={testId}
      {...(multiline === undefined ? {} : { multiline })}
      {...(readOnly === undefined ? {} : { readOnly })}
      {...(onBlur === undefined ? {} : { onBlur })}
      {...(ref === undefined ? {} : { ref })}
    />
  );
}
