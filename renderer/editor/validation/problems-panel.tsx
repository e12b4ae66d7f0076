// The Problems panel: every diagnostic of the document being edited, errors first, filtered by
// severity and text. Arrow keys move between rows, Enter (or a click) selects the problem's step
// or edge, reveals it on the canvas and focuses the field at fault.
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { AlertTriangle, CheckCircle2, ChevronDown, ChevronUp, LoaderCircle, Search, XCircle } from 'lucide-react';
import { activateProblem } from './activate-problem.ts';
import { countSeverities, filterProblems, SHOW_ALL, type ProblemFilter } from './problem-filter.ts';
import { ProblemRow } from './problem-row.tsx';
import { useValidation } from './validation-store.ts';
import './problems.css';

/** Rows drawn at most: thousands of rows would stall the page; the filter narrows the rest. */
const MAX_ROWS = 400;

const NEXT_KEYS: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => Math.min(i + 1, n - 1),
  ArrowUp: (i) => Math.max(i - 1, 0),
  Home: () => 0,
  End: (_i, n) => n - 1,
  PageDown: (i, n) => Math.min(i + 10, n - 1),
  PageUp: (i) => Math.max(i - 10, 0),
};

/** Where the panel can fold to its head: open or not, and the head's button that flips it. */
export interface ProblemsFold {
  open: boolean;
  toggle(): void;
}

export function ProblemsPanel({ fold }: { fold?: ProblemsFold }) {
  const diagnostics = useValidation((s) => s.diagnostics);
  const checkedDoc = useValidation((s) => s.checkedDoc);
  const pending = useValidation((s) => s.pending);
  const [filter, setFilter] = useState<ProblemFilter>(SHOW_ALL);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);

  const counts = useMemo(() => countSeverities(diagnostics), [diagnostics]);
  const items = useMemo(() => filterProblems(diagnostics, checkedDoc, filter), [diagnostics, checkedDoc, filter]);
  const shown = items.length > MAX_ROWS ? items.slice(0, MAX_ROWS) : items;
  const activeIndex = Math.min(active, Math.max(shown.length - 1, 0));

  // Stable across results, so memoized rows whose problem did not change skip rendering.
  const shownRef = useRef(shown);
  useLayoutEffect(() => {
    shownRef.current = shown;
  });
  const onActivate = useCallback((index: number) => {
    setActive(index);
    const item = shownRef.current[index];
    if (item !== undefined) activateProblem(item.diagnostic);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (shown.length === 0) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onActivate(activeIndex);
      return;
    }
    const next = NEXT_KEYS[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = next(activeIndex, shown.length);
    setActive(index);
    const row = listRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    row?.focus();
    row?.scrollIntoView({ block: 'nearest' });
  };

  const toggle = (severity: 'errors' | 'warnings') => setFilter((f) => ({ ...f, [severity]: !f[severity] }));

  return (
    <section className="problems-panel" data-testid="problems-panel" aria-label="Problems" aria-busy={pending}>
      <header className="problems-head">
        <h3 className="problems-title">
          {fold === undefined ? (
            'Problems'
          ) : (
            <button type="button" className="problems-fold" aria-expanded={fold.open} aria-controls="problems-body" onClick={fold.toggle} title={fold.open ? 'Fold the Problems panel (P)' : 'Open the Problems panel (P)'} data-testid="problems-fold">
              {fold.open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronUp size={14} aria-hidden="true" />}
              Problems
            </button>
          )}
        </h3>
        <button
          type="button"
          className="problems-toggle"
          data-severity="error"
          data-none={counts.errors === 0 ? 'true' : undefined}
          aria-pressed={filter.errors}
          data-testid="problems-errors"
          title={filter.errors ? 'Hide errors' : 'Show errors'}
          onClick={() => toggle('errors')}
        >
          <XCircle size={13} aria-hidden="true" />
          <span className="problems-count">{counts.errors}</span>
          <span className="visually-hidden">{counts.errors === 1 ? 'error' : 'errors'}</span>
        </button>
        <button
          type="button"
          className="problems-toggle"
          data-severity="warning"
          data-none={counts.warnings === 0 ? 'true' : undefined}
          aria-pressed={filter.warnings}
          data-testid="problems-warnings"
          title={filter.warnings ? 'Hide warnings' : 'Show warnings'}
          onClick={() => toggle('warnings')}
        >
          <AlertTriangle size={13} aria-hidden="true" />
          <span className="problems-count">{counts.warnings}</span>
          <span className="visually-hidden">{counts.warnings === 1 ? 'warning' : 'warnings'}</span>
        </button>
        {fold !== undefined && !fold.open && diagnostics.length === 0 && !pending ? (
          <span className="problems-none" data-testid="problems-none">
            <CheckCircle2 size={13} aria-hidden="true" className="problems-empty-ok" />
            No problems
          </span>
        ) : null}
        <span className="problems-pending" data-testid="problems-pending" role="status" hidden={!pending}>
          <LoaderCircle size={13} aria-hidden="true" className="problems-spinner" />
          Checking…
        </span>
        <label className="problems-search">
          <Search size={13} aria-hidden="true" />
          <input
            className="problems-search-input"
            type="search"
            placeholder="Filter problems"
            aria-label="Filter problems"
            data-testid="problems-filter"
            value={filter.text}
            onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
          />
        </label>
      </header>
      {fold !== undefined && !fold.open ? null : shown.length === 0 ? (
        <div className="problems-empty" id="problems-body" data-testid="problems-empty">
          {diagnostics.length === 0 ? (
            <>
              <CheckCircle2 size={16} aria-hidden="true" className="problems-empty-ok" />
              No problems
            </>
          ) : (
            `No problems match the filter (${diagnostics.length} hidden)`
          )}
        </div>
      ) : (
        <ul className="problems-list" id="problems-body" role="listbox" aria-label="Problems" ref={listRef} onKeyDown={onKeyDown}>
          {shown.map((item, index) => (
            <ProblemRow
              key={index}
              diagnostic={item.diagnostic}
              targetKind={item.location.target.kind}
              target={item.target}
              index={index}
              active={index === activeIndex}
              onActivate={onActivate}
              onFocusRow={setActive}
            />
          ))}
          {items.length > shown.length ? (
            <li className="problems-more" role="presentation">
              {items.length - shown.length} more: filter by code, step or text to see them
            </li>
          ) : null}
        </ul>
      )}
    </section>
  );
}
