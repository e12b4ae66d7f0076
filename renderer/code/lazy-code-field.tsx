// The code field of the forms (start, retry, skip, approve, revise): CodeMirror with its checks
// (ajv, jsonata) is half a megabyte, loaded when a form first shows a code field, not with the
// page that offers the form. Until it is there, the field shows its text, read-only, in the
// field's own frame, so nothing moves when the editor takes its place.
import { lazy, Suspense } from 'react';
import type { CodeFieldProps } from './code-field.tsx';
import './code-field-loading.css';

const loadCodeField = () => import('./code-field.tsx');
const CodeFieldEditor = lazy(() => loadCodeField().then((m) => ({ default: m.CodeField })));

export function LazyCodeField(props: CodeFieldProps) {
  const multiline = props.multiline ?? (props.mode === 'json' || props.mode === 'json-schema');
  return (
    <Suspense
      fallback={
        <div className={`code-field${multiline ? ' code-field--multiline' : ''} code-field--loading`} aria-busy="true" data-testid={props.testId === undefined ? undefined : `${props.testId}-loading`}>
          <pre className="code-field-text">{props.value === '' ? (props.placeholder ?? '') : props.value}</pre>
        </div>
      }
    >
      <CodeFieldEditor {...props} />
    </Suspense>
  );
}

/** Fetches CodeMirror ahead of a form that will show a code field (a failure shows when it renders). */
export function preloadCodeField(): void {
  loadCodeField().catch(() => undefined);
}
