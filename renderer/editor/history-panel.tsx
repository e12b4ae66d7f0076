// The workflow's versions: every version saved from the app or run by the engine, with its run
// count, newest first. Each can be compared with the editor's document; unsaved changes can be
// compared with the last save.
import { GitCompare, Play } from 'lucide-react';
import type { WorkflowDetail } from '../api/api-types.ts';
import { useRoute } from '../core/route-store.ts';
import { isDirty, useEditor } from './editor-store.ts';
import { MigrateRuns } from './migrate-runs.tsx';

interface Props {
  detail: WorkflowDetail;
  onCompare(a: number | 'saved', b: number | 'saved' | 'editor'): void;
}

export function HistoryPanel({ detail, onCompare }: Props) {
  const dirty = useEditor(isDirty);
  const docVersion = useEditor((s) => s.doc?.version);
  const docId = useEditor((s) => s.doc?.id);
  const go = useRoute((s) => s.go);
  const versions = [...detail.versions].sort((x, y) => y.version - x.version);
  return (
    <div className="history" data-testid="history">
      <section className="panel-section">
        <h3>Unsaved changes</h3>
        {dirty ? (
          <button type="button" className="button" onClick={() => onCompare('saved', 'editor')} data-testid="compare-unsaved">
            <GitCompare size={14} aria-hidden="true" /> Compare with the last save
          </button>
        ) : (
          <p className="muted" style={{ margin: 0 }}>
            None: the editor shows the file as saved.
          </p>
        )}
      </section>
      {docId !== undefined && versions[0] !== undefined ? <MigrateRuns workflowId={docId} latest={versions[0].version} /> : null}
      <section className="panel-section">
        <h3>Versions</h3>
        {versions.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            No version has been saved from the app or run yet. The file is v{docVersion}.
          </p>
        ) : (
          <ol className="history-list">
            {versions.map((v) => (
              <li key={v.version} className="history-row" data-testid={`version-${v.version}`}>
                <div className="history-main">
                  <span className="history-version">v{v.version}</span>
                  {v.version === docVersion ? <span className="node-chip">open</span> : null}
                  <span className="history-source" data-source={v.source ?? 'run'}>
                    {(v.source ?? 'run') === 'run' ? 'ran, immutable' : 'saved'}
                  </span>
                </div>
                <div className="history-sub faint">
                  {new Date(v.savedAtMs).toLocaleString()} · <span data-testid={`version-${v.version}-runs`}>{v.runCount ?? 0}</span> run{v.runCount === 1 ? '' : 's'}
                </div>
                <div className="history-actions">
                  <button type="button" className="link-button" onClick={() => onCompare(v.version, 'editor')} data-testid={`compare-${v.version}`}>
                    <GitCompare size={13} aria-hidden="true" /> Compare with editor
                  </button>
                  {(v.runCount ?? 0) > 0 && docId !== undefined ? (
                    <button type="button" className="link-button" onClick={() => go({ page: 'runs', workflow: docId })}>
                      <Play size={13} aria-hidden="true" /> Runs
                    </button>
                  ) : null}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
