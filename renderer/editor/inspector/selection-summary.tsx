// Several elements selected: what they are, and what can be done with them all at once.
import type { Selection } from '../editor-store.ts';

/** Step ids listed by name; a box selection of hundreds says how many more. */
const SHOWN = 12;

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

export function SelectionSummary({ selection }: { selection: Selection }) {
  const parts = [selection.steps.length > 0 ? plural(selection.steps.length, 'step') : null, selection.edges.length > 0 ? plural(selection.edges.length, 'edge') : null].filter((p) => p !== null);
  return (
    <div className="ins-summary" data-testid="selection-summary">
      <p className="ins-summary-title">{parts.join(' and ')} selected</p>
      {selection.steps.length > 0 ? (
        <p className="ins-summary-list mono">
          {selection.steps.slice(0, SHOWN).join(', ')}
          {selection.steps.length > SHOWN ? <span className="faint">{` and ${selection.steps.length - SHOWN} more`}</span> : null}
        </p>
      ) : null}
      <ul className="ins-summary-hints">
        <li>
          <kbd>Delete</kbd> removes them{selection.steps.length > 0 ? ', with the edges that touch the steps' : ''}
        </li>
        {selection.steps.length > 0 ? (
          <li>
            <kbd>Ctrl</kbd>+<kbd>D</kbd> duplicates the steps and the edges between them
          </li>
        ) : null}
        <li>Select one element to edit it</li>
      </ul>
    </div>
  );
}
