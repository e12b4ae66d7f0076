// A form generated from a JSON Schema: the start form of a workflow's input and the answer form of
// a human task. Each field shows its label, a required mark, its description as a hint and its own
// message; a "JSON" tab edits the whole value as text, for schemas (or values) the form cannot draw.
// The form holds its draft; the parent hears the value and the messages on every change.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { JsonValue } from '../../shared/api/json-value.ts';
import { draftOf, fitsForm, readForm, type Draft, type FieldError, type FormDraft } from './form-draft.ts';
import { formSpec, type FormSpec } from './form-spec.ts';
import { readJson, showJson } from './json-input.tsx';
import { LazyCodeField as CodeField } from '../code/lazy-code-field.tsx';
import { FieldView } from './schema-field.tsx';
import './forms.css';

export interface SchemaFormResult {
  /** The value to send; undefined when nothing was given (an empty JSON tab). */
  value: JsonValue | undefined;
  /** What the form's checks refuse, per field; empty when the value may be sent. */
  errors: FieldError[];
}

export interface SchemaFormProps {
  /** The JSON Schema; one the form cannot draw (or none) gives the JSON tab only. */
  schema: unknown;
  /** The value shown first: the last input, the attempt's input; else the schema's defaults. */
  initial?: JsonValue | undefined;
  onChange(result: SchemaFormResult): void;
  /** Show every field's message (after a submit), not only those of fields already left. */
  showAllErrors?: boolean;
  /** The accessible name of the form's group. */
  label: string;
  testId?: string;
}

type Tab = 'form' | 'json';

export function SchemaForm({ schema, initial, onChange, showAllErrors = false, label, testId = 'schema-form' }: SchemaFormProps) {
  const spec = useMemo(() => formSpec(schema), [schema]);
  const [tab, setTab] = useState<Tab>(() => (spec !== null && (initial === undefined || fitsForm(spec, initial)) ? 'form' : 'json'));
  const [draft, setDraft] = useState<FormDraft>(() => (spec === null ? {} : draftOf(spec, initial)));
  const [jsonText, setJsonText] = useState(() => showJson(initial));
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [notice, setNotice] = useState<string | null>(null);

  const result = useMemo(() => read(spec, tab, draft, jsonText), [spec, tab, draft, jsonText]);
  const latest = useRef(onChange);
  latest.current = onChange;
  const resultKey = JSON.stringify(result);
  useEffect(() => {
    latest.current(result);
    // Keyed by content: a new but equal result is not news.
  }, [resultKey]);

  const switchTo = (next: Tab) => {
    setNotice(null);
    if (next === tab) return;
    if (next === 'json') {
      setJsonText(showJson(result.value));
      setTab('json');
      return;
    }
    if (spec === null) return;
    const parsed = readJson(jsonText);
    if (parsed.kind === 'invalid') return setNotice(`The JSON does not parse, so the form cannot show it: ${parsed.message}`);
    if (parsed.kind === 'value' && !fitsForm(spec, parsed.value)) return setNotice('This value has fields or types the form cannot show; edit it here, as JSON.');
    setDraft(draftOf(spec, parsed.kind === 'value' ? parsed.value : undefined));
    setTab('form');
  };

  const errorAt = (path: string): string | undefined => {
    if (!showAllErrors && !touched.has(path)) return undefined;
    return result.errors.find((e) => e.path === path || e.path.startsWith(`${path}[`))?.message;
  };
  const touch = (path: string) => setTouched((t) => (t.has(path) ? t : new Set(t).add(path)));

  return (
    <div className="schema-form" role="group" aria-label={label} data-testid={testId}>
      {spec !== null ? (
        <div className="schema-tabs" role="tablist" aria-label={`${label}: how to edit`}>
          {(['form', 'json'] as const).map((t) => (
            <button key={t} type="button" role="tab" aria-selected={tab === t} className="schema-tab" onClick={() => switchTo(t)} data-testid={`${testId}-tab-${t}`}>
              {t === 'form' ? 'Form' : 'JSON'}
            </button>
          ))}
        </div>
      ) : null}
      {notice !== null ? (
        <p className="form-error" role="status">
          {notice}
        </p>
      ) : null}
      {tab === 'form' && spec !== null ? (
        <FormFields spec={spec} draft={draft} setDraft={setDraft} errorAt={errorAt} touch={touch} />
      ) : (
        <div className="schema-json">
          <CodeField value={jsonText} onChange={setJsonText} mode="json" label={`${label} as JSON`} testId={`${testId}-json`} placeholder="{ }" onBlur={() => touch('$')} />
          {(showAllErrors || touched.has('$')) && result.errors[0] !== undefined ? (
            <small className="form-error" data-testid={`${testId}-json-error`}>
              {result.errors[0].path === '$' ? '' : `${result.errors[0].path}: `}
              {result.errors[0].message}
            </small>
          ) : spec === null ? (
            <small className="faint">{schema === undefined || schema === null ? 'Any JSON value.' : 'Checked against the schema when you send it.'}</small>
          ) : null}
        </div>
      )}
    </div>
  );
}

function FormFields({ spec, draft, setDraft, errorAt, touch }: { spec: FormSpec; draft: FormDraft; setDraft: (f: (d: FormDraft) => FormDraft) => void; errorAt: (path: string) => string | undefined; touch: (path: string) => void }) {
  return (
    <div className="schema-fields">
      {spec.fields.map((f) => (
        <FieldView key={f.key} field={f} draft={draft[f.key]} path={`$.${f.key}`} onChange={(d: Draft) => setDraft((all) => ({ ...all, [f.key]: d }))} errorAt={errorAt} touch={touch} />
      ))}
    </div>
  );
}

function read(spec: FormSpec | null, tab: Tab, draft: FormDraft, jsonText: string): SchemaFormResult {
  if (tab === 'form' && spec !== null) return readForm(spec, draft);
  const parsed = readJson(jsonText);
  if (parsed.kind === 'invalid') return { value: undefined, errors: [{ path: '$', message: parsed.message }] };
  if (parsed.kind === 'empty') return { value: undefined, errors: [] };
  // A value the form can show gets the form's checks; the engine checks the rest.
  const errors = spec !== null && fitsForm(spec, parsed.value) ? readForm(spec, draftOf(spec, parsed.value)).errors : [];
  return { value: parsed.value, errors };
}
