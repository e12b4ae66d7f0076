// The workspace's workflows: one row each, with its problems counted. Enter or click opens it: a
// workflow in the editor, a file that is not a readable workflow in the view of its text and errors.
import { useEffect, useState } from 'react';
import { ChartLine, FileJson, FilePlus2, Upload } from 'lucide-react';
import { NewWorkflowDialog } from '../files/new-workflow-dialog.tsx';
import { importAndOpen } from '../files/file-transfer.ts';
import { useMenuHandlers } from '../core/menu-handlers.ts';
import { useWorkflowList } from '../core/workflow-queries.ts';
import { messageOf } from '../core/query-client.ts';
import { useRoute } from '../core/route-store.ts';
import { useSession } from '../core/session-store.ts';
import { rowKeys } from '../core/row-keys.ts';

export function WorkflowsPage() {
  const query = useWorkflowList();
  const list = { data: query.data ?? null, error: query.error === null ? null : messageOf(query.error) };
  const go = useRoute((s) => s.go);
  const workspace = useSession((s) => s.health?.workspace);
  const [creating, setCreating] = useState(false);
  const [importError, setImportError] = useState<string | null>(null);
  const doImport = async () => {
    setImportError(null);
    try {
      await importAndOpen();
    } catch (error) {
      setImportError(error instanceof Error ? error.message : String(error));
    }
  };
  useEffect(() => {
    document.title = 'Workflows · Weft Studio';
  }, []);
  // The desktop menu's New and Import do what this page's buttons do.
  useMenuHandlers({ 'file.new': () => setCreating(true), 'file.import': () => void doImport() });
  return (
    <div className="page">
      <div className="page-head">
        <h1 className="page-title">Workflows</h1>
        <div className="page-actions">
          <button type="button" className="button" onClick={() => void doImport()} data-testid="import-workflow">
            <Upload size={14} aria-hidden="true" /> Import
          </button>
          <button type="button" className="button button-primary" onClick={() => setCreating(true)} data-testid="new-workflow">
            <FilePlus2 size={14} aria-hidden="true" /> New workflow
          </button>
        </div>
      </div>
      {creating ? <NewWorkflowDialog onClose={() => setCreating(false)} /> : null}
      {importError !== null ? (
        <div className="error-box" role="alert">
          Could not import: {importError}
        </div>
      ) : null}
      <p className="page-sub">
        The <span className="mono">*.weft.json</span> files of {workspace ? <span className="mono">{workspace}</span> : 'the workspace'}.
      </p>
      {list.error !== null && list.data === null ? <div className="error-box">Could not list the workflows: {list.error}</div> : null}
      {list.data === null && list.error === null ? <div className="loading">Loading workflows…</div> : null}
      {list.data !== null && list.data.length === 0 ? (
        <div className="empty">
          <h2>No workflows here yet</h2>
          <p>
            Add a <span className="mono">NAME.weft.json</span> file to the workspace folder, or start from one of the examples.
          </p>
        </div>
      ) : null}
      {list.data !== null && list.data.length > 0 ? (
        <table className="table" data-testid="workflow-list">
          <thead>
            <tr>
              <th>Workflow</th>
              <th>File</th>
              <th className="num">Version</th>
              <th className="num">Steps</th>
              <th>Checks</th>
              <th>
                <span className="visually-hidden">insights</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((w) => (
              <tr key={`${w.file}`} tabIndex={0} data-testid={`workflow-row-${w.id ?? w.file}`} {...rowKeys(() => go(w.id !== null ? { page: 'workflow', id: w.id } : { page: 'file', file: w.file }))}>
                <td>
                  <div className="cell-title">{w.name ?? w.file}</div>
                  <div className="cell-sub mono">{w.id ?? 'not a readable workflow: open it to see where'}</div>
                </td>
                <td className="muted">
                  <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                    <FileJson size={14} aria-hidden="true" />
                    <span className="mono">{w.file}</span>
                  </span>
                </td>
                <td className="num">{w.version === null ? '—' : `v${w.version}`}</td>
                <td className="num">{w.stepCount}</td>
                <td>
                  {w.errors > 0 ? <span className="badge badge-error">{w.errors} {w.errors === 1 ? 'error' : 'errors'}</span> : null}{' '}
                  {w.warnings > 0 ? <span className="badge badge-warning">{w.warnings} {w.warnings === 1 ? 'warning' : 'warnings'}</span> : null}
                  {w.errors === 0 && w.warnings === 0 ? <span className="badge badge-ok">valid</span> : null}
                </td>
                <td className="num">
                  {w.id !== null ? (
                    <a
                      className="link-button"
                      style={{ padding: '2px 8px', fontSize: 'var(--fs-sm)', textDecoration: 'none' }}
                      href={`#/insights/${encodeURIComponent(w.id)}`}
                      data-testid={`workflow-insights-${w.id}`}
                      title={`success, retry and intervention rates, branch frequencies and step latencies of ${w.id}'s runs`}
                      onClick={(e) => e.stopPropagation()}
                      onKeyDown={(e) => e.stopPropagation()}
                    >
                      <ChartLine size={14} aria-hidden="true" /> Insights
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
