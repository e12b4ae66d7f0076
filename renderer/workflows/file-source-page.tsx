// A workspace file as text, with each of its findings placed in it: how a file that does not parse
// (shown in Workflows as "1 error" and no id) tells what is wrong and where. Each finding shows its
// line and column and the lines around it, the text it is about highlighted; a finding about the
// whole file (empty, unreadable, too large) shows its message alone. Read again after a fix.
import { useEffect } from 'react';
import { RefreshCw } from 'lucide-react';
import { useWorkflowSource } from '../core/workflow-queries.ts';
import { messageOf } from '../core/query-client.ts';
import { useRoute } from '../core/route-store.ts';
import { SourceFindingView } from './source-finding.tsx';
import './file-source.css';

export function FileSourcePage({ file }: { file: string }) {
  const source = useWorkflowSource(file);
  const go = useRoute((s) => s.go);
  useEffect(() => {
    document.title = `${file} · Weft Studio`;
  }, [file]);
  const data = source.data;
  const errors = data?.findings.filter((f) => f.diagnostic.severity === 'error').length ?? 0;
  // Fixed in the file: once it reads as a workflow, the list opens it in the editor.
  const fixed = data !== undefined && data.findings.length === 0;
  return (
    <div className="page file-source" data-testid="file-source">
      <div className="page-head">
        <h1 className="page-title mono">{file}</h1>
        <div className="page-actions">
          <button type="button" className="button" onClick={() => void source.refetch()} disabled={source.isFetching} data-testid="file-source-reload">
            <RefreshCw size={14} aria-hidden="true" /> Read again
          </button>
        </div>
      </div>
      {source.error !== null && data === undefined ? <div className="error-box">Could not read {file}: {messageOf(source.error)}</div> : null}
      {data === undefined && source.error === null ? <div className="loading">Reading {file}…</div> : null}
      {data !== undefined ? (
        <p className="page-sub">
          {fixed ? (
            <>
              The file has no problems now.{' '}
              <button type="button" className="link-button" onClick={() => go({ page: 'workflows' })}>
                Back to the workflows
              </button>
            </>
          ) : (
            <>
              Weft cannot read this file as a workflow: {errors === 1 ? 'one error' : `${errors} errors`}. Fix {errors === 1 ? 'it' : 'them'} in the file with your
              editor, then read it again.
            </>
          )}
        </p>
      ) : null}
      {data?.findings.map((finding, i) => <SourceFindingView key={i} finding={finding} text={data.text} />)}
    </div>
  );
}
