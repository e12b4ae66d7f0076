// The runs of the store, newest first: state, workflow, version, start, duration and where it
// failed. Paged from the server (a page at a time, more as the list is scrolled to its end or
// "Load more" is pressed) and filtered there, by workflow or run id text and by state. The
// unfinished runs shown are watched, so their rows change live as their events arrive; runs
// started since the list was read appear within RUNS_POLL_MS (the list is read again). "Select"
// shows a checkbox per row and the bulk bar (bulk/): one action on the runs ticked, or on every
// run the filter matches, with a preview, progress and a result naming the refused runs. Above
// the list, the circuits of the providers agent candidates call (providers-panel.tsx), once any.
import { StartRunLauncher } from './actions/start-run-launcher.tsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { rowsOf, useRunsList } from '../core/runs-list-query.ts';
import type { RunsFilter } from '../core/query-keys.ts';
import { useWatchRuns } from '../core/watched-runs.ts';
import { messageOf } from '../core/query-client.ts';
import { useRoute } from '../core/route-store.ts';
import { isFinishedRunState, RUN_STATES } from '../../shared/definition/names.ts';
import { formatDuration } from '../core/format.ts';
import { When } from '../core/when.tsx';
import { rowKeys } from '../core/row-keys.ts';
import { useNow } from '../core/use-now.ts';
import { queryClient } from '../core/query-client.ts';
import { keys } from '../core/query-keys.ts';
import { MAX_BULK_RUNS } from '../../shared/api/bulk-action.ts';
import { BulkBar } from './bulk/bulk-bar.tsx';
import { useBulkSelection } from './bulk/bulk-selection.ts';
import { MoreFiltersFields, NO_MORE, moreFilter, type MoreFilters } from './runs-more-filters.tsx';
import { ProvidersPanel } from './providers-panel.tsx';

export function RunsPage({ workflow }: { workflow?: string | undefined }) {
  const go = useRoute((s) => s.go);
  const [state, setState] = useState('');
  const [narrow, setNarrow] = useState<MoreFilters>(NO_MORE);
  const narrowSettled = useDebounced(narrow, TYPING_MS);
  const [text, setText] = useState(workflow ?? '');
  const needle = useDebounced(text.trim(), TYPING_MS);
  const now = useNow(1000);
  useEffect(() => {
    document.title = 'Runs · Weft Studio';
  }, []);
  useEffect(() => setText(workflow ?? ''), [workflow]);

  const filter = useMemo((): RunsFilter => ({ ...(state === '' ? {} : { state }), ...(needle === '' ? {} : { q: needle }), ...moreFilter(narrowSettled) }), [state, needle, narrowSettled]);
  const list = useRunsList(filter, { poll: true });
  const rows = useMemo(() => rowsOf(list.data), [list.data]);
  const loaded = list.data !== undefined || list.error !== null;
  const error = list.error === null ? null : messageOf(list.error);
  const filtered = state !== '' || needle !== '' || Object.keys(moreFilter(narrowSettled)).length > 0;
  useWatchRuns(useMemo(() => rows.filter((r) => isOpen(r.state)).map((r) => r.id), [rows]));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const selection = useBulkSelection();
  const { selecting } = selection;
  // Every run the filter matches: the pages not read yet are read first.
  const loadAll = async (): Promise<string[]> => {
    let data = list.data;
    let next = hasNextPage;
    while (next && rowsOf(data).length < MAX_BULK_RUNS) {
      const page = await fetchNextPage({ cancelRefetch: false });
      data = page.data;
      next = page.hasNextPage;
    }
    return rowsOf(data)
      .map((r) => r.id)
      .slice(0, MAX_BULK_RUNS);
  };
  const shownIds = rows.map((r) => r.id);
  const allShown = shownIds.length > 0 && shownIds.every((id) => selection.has(id));
  const more = () => void fetchNextPage({ cancelRefetch: false });
  // The next page as the list's end scrolls into view.
  const end = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const el = end.current;
    if (el === null || !hasNextPage) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void fetchNextPage({ cancelRefetch: false });
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [hasNextPage, fetchNextPage, rows.length]);

  return (
    <div className="page">
      <div className="page-head">
        <h1 className="page-title">Runs</h1>
        <StartRunLauncher {...(workflow === undefined ? {} : { workflowId: workflow })} />
      </div>
      <p className="page-sub">Every run in the store, newest first. States change here as the engine works.</p>
      <div className="toolbar">
        <input
          className="input"
          type="search"
          placeholder="Filter by workflow or run id"
          aria-label="filter runs by workflow or run id"
          value={text}
          onChange={(e) => setText(e.target.value)}
          style={{ width: 280 }}
        />
        <select className="select" aria-label="filter runs by state" value={state} onChange={(e) => setState(e.target.value)}>
          <option value="">All states</option>
          {RUN_STATES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
        <MoreFiltersFields value={narrow} onChange={setNarrow} />
        <button type="button" className="button" aria-pressed={selecting} onClick={() => selection.setSelecting(!selecting)} data-testid="runs-select">
          {selecting ? 'Done selecting' : 'Select'}
        </button>
        <span className="muted" style={{ marginLeft: 'auto' }} data-testid="run-count">
          {rows.length}
          {hasNextPage ? '+' : ''} {filtered ? 'matching' : rows.length === 1 ? 'run' : 'runs'}
        </span>
      </div>
      <ProvidersPanel />
      {selecting ? <BulkBar selection={selection} shown={rows.length} more={hasNextPage} loadAll={loadAll} onApplied={() => void queryClient.invalidateQueries({ queryKey: keys.allRuns() })} /> : null}
      {error !== null ? <div className="error-box">Could not list the runs: {error}</div> : null}
      {!loaded ? <div className="loading">Loading runs…</div> : null}
      {loaded && error === null && rows.length === 0 && filtered ? <div className="empty">No run matches.</div> : null}
      {loaded && error === null && rows.length === 0 && !filtered ? (
        <div className="empty">
          <h2>No runs yet</h2>
          <p>
            Start one from a terminal with <span className="mono">weft run FILE</span>; it appears here at once.
          </p>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <table className="table" data-testid="run-list">
          <thead>
            <tr>
              {selecting ? (
                <th className="bulk-check">
                  <input type="checkbox" aria-label="select every run shown" checked={allShown} onChange={() => (allShown ? selection.clear() : selection.add(shownIds))} data-testid="select-shown" />
                </th>
              ) : null}
              <th>State</th>
              <th>Run</th>
              <th>Workflow</th>
              <th>Started</th>
              <th className="num">Duration</th>
              <th>Failed at</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} tabIndex={0} data-testid={`run-row-${r.id}`} aria-selected={selecting ? selection.has(r.id) : undefined} {...rowKeys(() => go({ page: 'run', id: r.id }))}>
                {selecting ? (
                  <td className="bulk-check" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                    <input type="checkbox" aria-label={`select run ${r.id}`} checked={selection.has(r.id)} onChange={() => selection.toggle(r.id)} data-testid={`select-${r.id}`} />
                  </td>
                ) : null}
                <td>
                  <span className="state" data-state={r.state}>
                    {r.state.replace('_', ' ')}
                  </span>
                </td>
                <td className="mono">
                  {r.id}
                  {r.debug === true ? (
                    <span className="debug-badge" title="a debug run: breakpoints or pinned outputs; its outputs may not be real" data-testid={`debug-${r.id}`}>
                      debug
                    </span>
                  ) : null}
                </td>
                <td>
                  {r.workflowId} <span className="faint">v{r.version}</span>
                </td>
                <td className="muted">
                  <When at={r.createdAt} />
                </td>
                <td className="num">{formatDuration(r.endedAtMs === null && isOpen(r.state) ? Math.max(0, now - r.startedAtMs) : r.durationMs)}</td>
                <td data-testid={`run-failure-${r.id}`}>{r.failure === null ? null : <span className="mono" title={r.failure.reason}>{r.failure.step ?? '—'}{r.failure.outcome ? <span className="faint"> ({r.failure.outcome.replace('_', ' ')})</span> : null}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {hasNextPage ? (
        <div className="toolbar" ref={end}>
          <button type="button" className="button" onClick={more} disabled={isFetchingNextPage} data-testid="runs-load-more">
            {isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** How long typing rests before the list is asked for the new text. */
const TYPING_MS = 250;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const isOpen = (state: string): boolean => !isFinishedRunState(state);
