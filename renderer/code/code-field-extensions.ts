// The CodeMirror extensions of a code field. Everything that changes with props sits in a
// compartment or reads a getter, so the view is built once and reconfigured, never rebuilt.
import { acceptCompletion, autocompletion, completionStatus, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionSource } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching } from '@codemirror/language';
import { linter, lintKeymap } from '@codemirror/lint';
import { Compartment, EditorState, Prec, StateEffect, StateField, type Extension } from '@codemirror/state';
import { EditorView, drawSelection, highlightSpecialChars, keymap, placeholder, tooltips } from '@codemirror/view';
import { codeHighlighting } from './code-highlight.ts';
import { completeField, fieldDiagnostics, type CodeFieldMode, type ExternalDiagnostic } from './field-checks.ts';
import type { CompletionItem, CompletionScope } from './jsonata-complete.ts';
import { jsonataLanguage, templateLanguage } from './jsonata-language.ts';

export const setExternalDiagnostics = StateEffect.define<readonly ExternalDiagnostic[]>();

const externalDiagnostics = StateField.define<readonly ExternalDiagnostic[]>({
  create: () => [],
  update: (value, tr) => tr.effects.reduce((v, e) => (e.is(setExternalDiagnostics) ? e.value : v), value),
});

/** What the extensions read from the component at the moment they need it. */
export interface FieldHooks {
  scope: () => CompletionScope | undefined;
  submit: () => (() => void) | undefined;
}

export interface FieldCompartments {
  mode: Compartment;
  label: Compartment;
  editable: Compartment;
  placeholder: Compartment;
}

export const newCompartments = (): FieldCompartments => ({ mode: new Compartment(), label: new Compartment(), editable: new Compartment(), placeholder: new Compartment() });

/** Lint, colouring and completion of one mode. */
export function modeExtensions(mode: CodeFieldMode, hooks: FieldHooks): Extension {
  const lint = linter((view) => fieldDiagnostics(mode, view.state.doc.toString(), view.state.field(externalDiagnostics)), {
    delay: 250,
    needsRefresh: (u) => u.transactions.some((t) => t.effects.some((e) => e.is(setExternalDiagnostics))),
  });
  if (mode === 'json' || mode === 'json-schema') return [json(), lint];
  return [mode === 'template' ? templateLanguage : jsonataLanguage, lint, autocompletion({ override: [completionSource(mode, hooks)], icons: false })];
}

function completionSource(mode: CodeFieldMode, hooks: FieldHooks): CompletionSource {
  return (ctx) => {
    const scope = hooks.scope();
    if (scope === undefined) return null;
    const result = completeField(mode, ctx.state.doc.toString(), ctx.pos, scope, ctx.explicit);
    if (result === null || result.options.length === 0) return null;
    return { from: result.from, options: result.options.map(toCompletion), validFor: /^[\w$]*$/ };
  };
}

function toCompletion(item: CompletionItem): Completion {
  const base: Completion = { label: item.label, type: item.type, ...(item.detail === undefined ? {} : { detail: item.detail }), ...(item.info === undefined ? {} : { info: item.info }), ...(item.boost === undefined ? {} : { boost: item.boost }) };
  if (item.type === 'function') {
    // `$sum` → `$sum(|)`, unless a `(` already follows.
    return {
      ...base,
      apply: (view, _c, from, to) => {
        const call = view.state.sliceDoc(to, to + 1) !== '(';
        view.dispatch({ changes: { from, to, insert: call ? `${item.label}()` : item.label }, selection: { anchor: from + item.label.length + (call ? 1 : 0) }, userEvent: 'input.complete' });
      },
    };
  }
  return item.apply === undefined ? base : { ...base, apply: item.apply };
}

export function labelExtension(label: string, testId: string | undefined): Extension {
  return EditorView.contentAttributes.of({ 'aria-label': label, ...(testId === undefined ? {} : { 'data-testid': `${testId}-input` }) });
}

/**
 * The content says tabindex 0, editable or not: a read-only field stays reachable to scroll and
 * copy, and axe counts a scroller as keyboard-reachable by a tabindex (contenteditable is not enough).
 */
export const editableExtension = (readOnly: boolean): Extension => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly), EditorView.contentAttributes.of({ tabindex: '0' })];

export const placeholderExtension = (text: string | undefined): Extension => (text === undefined ? [] : placeholder(text));

/**
 * CodeMirror writes its base styles into a <style> element, which a `style-src 'self'` policy
 * refuses unless the element carries the policy's nonce. A page that has one publishes it as
 * Vite does, in `<meta property="csp-nonce" nonce="...">`.
 */
function cspNonce(): Extension {
  const meta = document.querySelector('meta[property="csp-nonce"]');
  const nonce = meta instanceof HTMLMetaElement ? meta.nonce || meta.getAttribute('nonce') : null;
  return nonce ? EditorView.cspNonce.of(nonce) : [];
}

/** The fixed part: editing, history, keys. Tab is never bound unless completion is open, so it leaves the field. */
export function baseExtensions(hooks: FieldHooks, multiline: boolean): Extension {
  return [
    cspNonce(),
    externalDiagnostics,
    history(),
    drawSelection(),
    highlightSpecialChars(),
    bracketMatching(),
    closeBrackets(),
    codeHighlighting,
    EditorView.lineWrapping,
    // Tooltips on the body, so a scrolling or clipping inspector panel does not cut them off.
    tooltips({ parent: document.body }),
    Prec.highest(
      keymap.of([
        // With the list open, Tab accepts; in the moment after it opens (CodeMirror ignores keys
        // briefly, so a fast typist's Enter is not taken as a choice) Tab does nothing rather
        // than leave the field the user is typing in.
        { key: 'Tab', run: (view) => completionStatus(view.state) === 'active' && (acceptCompletion(view) || true) },
        {
          key: 'Mod-Enter',
          run: () => {
            const submit = hooks.submit();
            if (submit === undefined) return false;
            submit();
            return true;
          },
        },
      ]),
    ),
    keymap.of([...closeBracketsKeymap, ...completionKeymap, ...defaultKeymap, ...historyKeymap, ...lintKeymap]),
    EditorView.editorAttributes.of({ class: multiline ? 'cf-multiline' : 'cf-compact' }),
  ];
}
