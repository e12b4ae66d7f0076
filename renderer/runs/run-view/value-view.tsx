// A JSON value of a run (an input, an output, evidence), shown read-only. Small values are
// printed; the collapsible, searchable view for large ones takes its place where it is built.
import { memo } from 'react';

interface Props {
  value: unknown;
  runId: string;
  /** Where the value sits in the run, to fetch the rest of an elided one. */
  valuePath: string;
  label: string;
  testId: string;
}

function ValueViewImpl({ value, label, testId }: Props) {
  const text = value === undefined ? 'undefined' : JSON.stringify(value, null, 2);
  return (
    <pre className="rsd-json mono" aria-label={label} data-testid={testId}>
      {text}
    </pre>
  );
}

export const ValueView = memo(ValueViewImpl);
