// A JSON value of a run (an input, an output, evidence), read-only. Small values are printed as
// they are; a large one, or one the server left out of the detail (an ElidedValue stub), opens in
// the collapsible, searchable JSON view, which fetches the rest by its value path on demand; so
// does one holding a value kept by reference, which it opens on demand.
import { memo, useMemo } from 'react';
import { isElidedValue } from '../../../shared/api/elided-value.ts';
import { holdsArtifactRef } from '../../../shared/artifacts/artifact-ref.ts';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import { JsonView } from '../payload/json-view.tsx';

interface Props {
  value: JsonValue;
  runId: string;
  /** Where the value sits in the run (`steps.fetch.attempts[1].output`), to fetch an elided one. */
  valuePath: string;
  label: string;
  testId: string;
}

/** Past this many characters of JSON, the tree view is easier to read than the text. */
const PRINT_LIMIT = 4000;

function ValueViewImpl({ value, runId, valuePath, label, testId }: Props) {
  // A value holding a reference to the artifact store (a sensitive field, a large output) opens in
  // the JSON view too, which shows the reference redacted and opens it on demand (docs/long-running.md).
  const text = useMemo(() => (isElidedValue(value) || holdsArtifactRef(value) ? null : JSON.stringify(value, null, 2) ?? 'undefined'), [value]);
  if (text === null || text.length > PRINT_LIMIT) return <JsonView value={value} runId={runId} valuePath={valuePath} label={label} testId={testId} />;
  return (
    // Focusable: a long value scrolls, and a keyboard must reach it to scroll it.
    <pre className="rsd-json mono" tabIndex={0} aria-label={label} data-testid={testId}>
      {text}
    </pre>
  );
}

export const ValueView = memo(ValueViewImpl);
