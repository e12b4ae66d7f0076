// The runs of the store, newest first: state, workflow, version, start, duration and where it
// failed. Filterable by workflow and state; rows change live as events arrive.
import { StartRunLauncher } from './actions/start-run-launcher.tsx';
import { useEffect, useMemo, useState } from 'react';
import { useRuns } from '../core/runs-store.ts';
import { useRoute } from '../core/route-store.ts';
import { isFinishedRunState, RUN_STATES } from '../../shared/definition/names.ts';
import { formatDuration, formatTime } from '../core/format.ts';
import { rowKeys } from '../core/row-keys.ts';
import { useNow } from '../core/use-now.ts';

export function RunsPage({ workflow }: { workflow?: string | undefined }) {
  const order = useRuns((s) => s.order);
  const byId = useRuns((s) => s.byId);
  const loaded = useRuns((s) => s.listLoaded);
  const error = useRuns((s) => s.listError);
  const go = useRoute((s) => s.go);
  const [state, setState] = useState('');
  const [text, setText] = useState(workflow ?? '');
  const now = useNow(1000);
  useEffect(() => {
    document.title = 'Runs · Weft Studio';
  }, []);
  useEffect(() => setText(workflow ?? ''), [workflow]);

  const rows = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return order
      .map((id) => byId[id])
      .filter((r) => r !== undefined)
      .filter((r) => (state === '' || r.state === state) && (needle === '' || r.workflowId.includes(needle) || r.id.includes(needle)));
  }, [order, byId, state, text]);

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
        <span className="muted" style={{ marginLeft: 'auto' }}>
          {rows.length} of {order.length}
        </span>
      </div>
      {error !== null ? <div className="error-box">Could not list the runs: {error}</div> : null}
      {!loaded ? <div className="loading">Loading runs…</div> : null}
      {loaded && order.length === 0 ? (
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
                <td className="muted">{formatTime(r.createdAt)}</td>
                <td className="num">{formatDuration(r.endedAtMs === null && isOpen(r.state) ? Math.max(0, now - r.startedAtMs) : r.durationMs)}</td>
                <td>{r.failure === null ? null : <span className="mono" title={r.failure.reason}>{r.failure.step ?? '—'}{r.failure.outcome ? <span className="faint"> ({r.failure.outcome.replace('_', ' ')})</span> : null}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

const isOpen = (state: string): boolean => !isFinishedRunState(state);
