// The selected element as raw JSON. It follows the document while it is not being edited;
// Apply (or Ctrl+Enter) replaces the element when the text is valid JSON of the element's
// shape, and otherwise says why and leaves the document alone.
import { useState } from 'react';
import type { InspectedElement } from './focus-target.ts';
import { CodeInput, jsonTextError } from './code-input.tsx';
import { commitElement } from './use-commit.ts';

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

export function ElementJsonEditor({ element, value }: { element: InspectedElement; value: unknown }) {
  const text = pretty(value);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [seen, setSeen] = useState(text);
  if (seen !== text) {
    // The document changed (the form, undo): an untouched view follows it, an edited one keeps
    // the author's text and says it is behind.
    setSeen(text);
    if (draft !== null && draft === text) setDraft(null);
  }
  const shown = draft ?? text;
  const dirty = draft !== null && draft !== text;
  const apply = (): void => {
    if (draft === null) return;
    const parseError = jsonTextError(draft, 'json');
    if (parseError !== null) return setError(`not valid JSON: ${parseError}`);
    if (draft.trim() === '') return setError('the JSON view is empty: write the element, or Revert');
    const problem = commitElement(element, JSON.parse(draft));
    setError(problem);
    if (problem === null) setDraft(null);
  };
  const label = element.type === 'workflow' ? 'Workflow JSON (without steps, edges and layout)' : `${element.type === 'step' ? 'Step' : 'Edge'} ${element.id} as JSON`;
  return (
    <div
      className="ins-json"
      data-testid="inspector-json"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          apply();
        }
      }}
    >
      <CodeInput
        value={shown}
        mode="json"
        label={label}
        testId="inspector-json-text"
        multiline
        onChange={(next) => {
          setDraft(next);
          setError(null);
        }}
      />
      {error !== null ? (
        <div className="ins-error" role="alert" data-testid="inspector-json-error">
          {error}
        </div>
      ) : null}
      <div className="ins-json-bar">
        <span className="faint">{dirty ? 'Edited: Apply writes it (Ctrl+Enter)' : element.type === 'workflow' ? 'Steps, edges and layout are edited on the canvas' : 'In sync with the form'}</span>
        <button type="button" className="ins-button" disabled={!dirty} onClick={() => {
          setDraft(null);
          setError(null);
        }}>
          Revert
        </button>
        <button type="button" className="ins-button ins-button-primary" disabled={!dirty} onClick={apply} data-testid="inspector-json-apply">
          Apply
        </button>
      </div>
    </div>
  );
}
