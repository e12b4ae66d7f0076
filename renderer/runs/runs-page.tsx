// The runs of the store, newest first: state, workflow, version, start, duration and where it
// failed. Paged from the server (a page at a time, more as the list is scrolled to its end or
// "Load more" is pressed) and filtered there, by workflow or run id text and by state. The
// unfinished runs shown are watched, so their rows change live as their events arrive; runs
// started since the list was read appear within RUNS_POLL_MS (the list is read again).
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

export function RunsPage({ workflow }: { workflow?: string | undefined }) {
  const go = useRoute((s) => s.go);
  const [state, setState] = useState('');
  const [text, setText] = useState(workflow ?? '');
  const needle = useDebounced(text.trim(), TYPING_MS);
  const now = useNow(1000);
  useEffect(() => {
    document.title = 'Runs · Weft Studio';
  }, []);
  useEffect(() => setText(workflow ?? ''), [workflow]);

  const filter = useMemo((): RunsFilter => ({ ...(state === '' ? {} : { state }), ...(needle === '' ? {} : { q: needle }) }), [state, needle]);
  const list = useRunsList(filter, { poll: true });
  const rows = useMemo(() => rowsOf(list.data), [list.data]);
  const loaded = list.data !== undefined || list.error !== null;
  const error = list.error === null ? null : messageOf(list.error);
  const filtered = state !== '' || needle !== '';
  useWatchRuns(useMemo(() => rows.filter((r) => isOpen(r.state)).map((r) => r.id), [rows]));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
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
        <span className="muted" style={{ marginLeft: 'auto' }} data-testid="run-count">
          {rows.length}
          {hasNextPage ? '+' : ''} {filtered ? 'matching' : rows.length === 1 ? 'run' : 'runs'}
        </span>
      </div>
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
              <tr key={r.id} tabIndex={0} data-testid={`run-row-${r.id}`} {...rowKeys(() => go({ page: 'run', id: r.id }))}>
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
