// Fields edited as code: JSONata expressions and {{ }} templates, JSON Schemas and other JSON
// values. They use the code editor and register its handle, so a problem can place the cursor.
import { useId, useLayoutEffect, useRef, type RefObject } from 'react';
import { FieldFrame, type FieldProps } from './field.tsx';
import { CodeInput, jsonTextError, type CodeInputHandle } from './code-input.tsx';
import { registerFocus } from './focus-registry.ts';
import { useDraft } from './use-draft.ts';
import { textValue } from './form-values.ts';
import type { ExpressionScope } from './scope.ts';
import { useFieldDiagnostics } from './field-diagnostics.ts';

function useRegistered(path: string): RefObject<CodeInputHandle | null> {
  const handle = useRef<CodeInputHandle | null>(null);
  // Layout phase: a focus request answered in the same commit finds the handle already there.
  useLayoutEffect(() => {
    registerFocus(path, handle.current);
    return () => registerFocus(path, null);
  }, [path]);
  return handle;
}

export function ExpressionField(props: FieldProps<string> & { mode: 'jsonata' | 'template'; scope: ExpressionScope; multiline?: boolean }) {
  const { path, label, hint, value, onCommit, optional = true, note, mode, scope, multiline } = props;
  const labelId = useId();
  const handle = useRegistered(path);
  const found = useFieldDiagnostics(path);
  const draft = useDraft(value, (v) => v ?? '', (text, v) => textValue(text, optional) === v);
  return (
    <FieldFrame path={path} label={label} labelId={labelId} hint={hint} error={draft.error} note={note} required={!optional}>
      <CodeInput
        ref={handle}
        value={draft.text}
        mode={mode}
        scope={scope}
        externalDiagnostics={found}
        label={label}
        testId={`field-${path}`}
        {...(multiline === undefined ? {} : { multiline })}
        onChange={(text) => {
          draft.setText(text);
          draft.setError(onCommit(textValue(text, optional)));
        }}
      />
    </FieldFrame>
  );
}

const jsonText = (v: unknown): string => (v === undefined ? '' : JSON.stringify(v, null, 2));

const sameJson = (text: string, v: unknown): boolean => {
  if (text.trim() === '') return v === undefined;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(v);
  } catch {
    return false;
  }
};

/** A JSON value (a JSON Schema, mock replies, retry variants): written whenever the text parses. */
export function JsonField(props: FieldProps<unknown> & { mode: 'json' | 'json-schema' }) {
  const { path, label, hint, value, onCommit, optional = true, note, mode } = props;
  const labelId = useId();
  const handle = useRegistered(path);
  const found = useFieldDiagnostics(path);
  const draft = useDraft(value, jsonText, sameJson);
  return (
    <FieldFrame path={path} label={label} labelId={labelId} hint={hint} error={draft.error} note={note} required={!optional}>
      <CodeInput
        ref={handle}
        value={draft.text}
        mode={mode}
        externalDiagnostics={found}
        label={label}
        testId={`field-${path}`}
        multiline
        onChange={(text) => {
          draft.setText(text);
          // The code field shows a parse error itself; only a parsed value can be refused here.
          if (jsonTextError(text, mode) !== null) return draft.setError(null);
          if (text.trim() === '') return draft.setError(optional ? onCommit(undefined) : 'this field is required');
          const parsed: unknown = JSON.parse(text);
          draft.setError(onCommit(parsed));
        }}
      />
    </FieldFrame>
  );
}
