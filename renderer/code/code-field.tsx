// A code field of the inspector: a JSONata expression, a template, JSON or a JSON Schema, with
// colouring, errors as you type and completion of what is in scope. The EditorView is built once
// per mount; props reconfigure it. `ref.focus(offset)` lets the Problems panel put the cursor at
// the fault.
import { forEachDiagnostic } from '@codemirror/lint';
import { Annotation, EditorState, Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, type Ref } from 'react';
import {
  baseExtensions,
  editableExtension,
  labelExtension,
  modeExtensions,
  newCompartments,
  placeholderExtension,
  setExternalDiagnostics,
  type FieldHooks,
} from './code-field-extensions.ts';
import type { CodeFieldMode, ExternalDiagnostic } from './field-checks.ts';
import type { CompletionScope } from './jsonata-complete.ts';
import './code-field.css';

export interface CodeFieldHandle {
  /** Focuses the field; with an offset, puts the cursor there (clamped to the text) and scrolls to it. */
  focus(offset?: number): void;
}

export interface CodeFieldProps {
  value: string;
  /** Called on every edit with the whole text; the parent debounces or groups for undo. */
  onChange: (value: string) => void;
  mode: CodeFieldMode;
  /** What completion offers (jsonata and template modes). */
  scope?: CompletionScope;
  /** Findings of the live validator for this field, offsets into its text. */
  externalDiagnostics?: readonly ExternalDiagnostic[];
  /** The accessible name of the text box. */
  label: string;
  /** `data-testid` of the wrapper; the text box itself gets `${testId}-input`. */
  testId?: string;
  /** Several lines from the start (default for json modes); otherwise one line that grows. */
  multiline?: boolean;
  readOnly?: boolean;
  placeholder?: string;
  onBlur?: () => void;
  /** Mod-Enter. */
  onSubmit?: () => void;
  ref?: Ref<CodeFieldHandle>;
}

/** Marks transactions that bring the parent's value in, so they are not echoed to onChange. */
const fromParent = Annotation.define<boolean>();

const NO_DIAGNOSTICS: readonly ExternalDiagnostic[] = [];

export function CodeField(props: CodeFieldProps) {
  const { value, mode, label, testId, readOnly = false, ref } = props;
  const multiline = props.multiline ?? (mode === 'json' || mode === 'json-schema');
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const compartments = useRef(newCompartments()).current;
  // Latest props for callbacks the view calls later; read at call time, so no reconfiguration.
  const latest = useRef(props);
  latest.current = props;
  // The mode the view was built or last reconfigured with; only a change reconfigures.
  const builtMode = useRef(mode);

  useLayoutEffect(() => {
    const parent = host.current;
    if (parent === null) return;
    const hooks: FieldHooks = { scope: () => latest.current.scope, submit: () => latest.current.onSubmit };
    const p = latest.current;
    builtMode.current = p.mode;
    const v = new EditorView({
      parent,
      state: EditorState.create({
        doc: p.value,
        extensions: [
          baseExtensions(hooks, multiline),
          compartments.mode.of(modeExtensions(p.mode, hooks)),
          compartments.label.of(labelExtension(p.label, p.testId)),
          compartments.editable.of(editableExtension(p.readOnly ?? false)),
          compartments.placeholder.of(placeholderExtension(p.placeholder)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !u.transactions.some((t) => t.annotation(fromParent) === true)) latest.current.onChange(u.state.doc.toString());
            if (u.focusChanged && !u.view.hasFocus) latest.current.onBlur?.();
            let invalid = false;
            forEachDiagnostic(u.state, (d) => {
              invalid ||= d.severity === 'error';
            });
            u.view.contentDOM.setAttribute('aria-invalid', String(invalid));
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The view lives as long as the element; `multiline` picks the look once, like `mode` picks a field.
  }, [compartments, multiline]);

  useEffect(() => {
    const v = view.current;
    if (v === null || builtMode.current === mode) return;
    builtMode.current = mode;
    const hooks: FieldHooks = { scope: () => latest.current.scope, submit: () => latest.current.onSubmit };
    v.dispatch({ effects: compartments.mode.reconfigure(modeExtensions(mode, hooks)) });
  }, [compartments, mode]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.label.reconfigure(labelExtension(label, testId)) });
  }, [compartments, label, testId]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.editable.reconfigure(editableExtension(readOnly)) });
  }, [compartments, readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.placeholder.reconfigure(placeholderExtension(props.placeholder)) });
  }, [compartments, props.placeholder]);

  // The parent's value wins when it differs (undo elsewhere, another view of the same field);
  // only the changed middle is replaced, so the cursor stays where it was around it.
  useEffect(() => {
    const v = view.current;
    if (v === null) return;
    const current = v.state.doc.toString();
    if (current === value) return;
    let start = 0;
    while (start < current.length && start < value.length && current[start] === value[start]) start++;
    let end = 0;
    while (end < current.length - start && end < value.length - start && current[current.length - 1 - end] === value[value.length - 1 - end]) end++;
    v.dispatch({
      changes: { from: start, to: current.length - end, insert: value.slice(start, value.length - end) },
      annotations: [fromParent.of(true), Transaction.addToHistory.of(false)],
    });
  }, [value]);

  // Keyed by content: a parent that builds a new but equal array each render does not re-lint.
  const external = useRef(NO_DIAGNOSTICS);
  external.current = props.externalDiagnostics ?? NO_DIAGNOSTICS;
  const externalKey = JSON.stringify(external.current);
  useEffect(() => {
    view.current?.dispatch({ effects: setExternalDiagnostics.of(external.current) });
  }, [externalKey]);

  useImperativeHandle(
    ref,
    () => ({
      focus(offset?: number): void {
        const v = view.current;
        if (v === null) return;
        v.focus();
        if (offset === undefined) return;
        const anchor = Math.max(0, Math.min(offset, v.state.doc.length));
        v.dispatch({ selection: { anchor }, scrollIntoView: true });
      },
    }),
    [],
  );

  return <div ref={host} className={`code-field${multiline ? ' code-field--multiline' : ''}${readOnly ? ' code-field--readonly' : ''}`} data-testid={testId} data-mode={mode} />;
}
