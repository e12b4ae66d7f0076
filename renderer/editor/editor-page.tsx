// The workflow editor: toolbar, palette, canvas, inspector and Problems panel over one document.
// It opens the workflow file the server reads, lays it out (the file's layout, else elkjs in a
// worker), and offers back a draft of unsaved changes if one was left behind.
import { useEffect, useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { useWorkflowDetail } from '../core/workflow-queries.ts';
import { useLessonsOnCanvas } from '../core/workflow-lessons.ts';
import { messageOf } from '../core/query-client.ts';
import { Diagnostics } from '../workflows/diagnostics-list.tsx';
import { filePositions } from '../graph/to-flow.ts';
import { autoLayout } from '../graph/auto-layout.ts';
import { useEditor } from './editor-store.ts';
import { EditorWorkbench } from './editor-workbench.tsx';
import './editor.css';
import './panel-fold.css';

export function EditorPage({ id }: { id: string }) {
  const detail = useWorkflowDetail(id);
  useLessonsOnCanvas(id);
  const openDoc = useEditor((s) => s.doc);
  const openId = useEditor((s) => s.source?.workflowId);
  const [layoutError, setLayoutError] = useState<string | null>(null);

  useEffect(() => {
    document.title = `${id} · Weft Studio`;
  }, [id]);

  const data = detail.data ?? null;
  useEffect(() => {
    if (data === null || data.definition === null) return;
    const current = useEditor.getState();
    // A reload of the list (another tab saved) must not throw away the open document.
    if (current.source?.workflowId === id && current.doc !== null) return;
    const definition = data.definition;
    const source = { workflowId: id, file: data.summary.file, hash: data.fileHash ?? null };
    let live = true;
    basePositionsFor(definition).then(
      (positions) => live && useEditor.getState().open(definition, source, positions),
      (error: unknown) => live && setLayoutError(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [data, id]);

  useEffect(() => () => useEditor.getState().close(), []);

  if (detail.data === undefined && detail.error === null) return <div className="loading">Loading {id}…</div>;
  if (detail.data === undefined) return <div className="error-box">Could not open {id}: {messageOf(detail.error)}</div>;
  if (detail.data.definition === null) {
    return (
      <div className="page">
        <h1 className="page-title">{detail.data.summary.file}</h1>
        <p className="page-sub">This file is not a workflow the editor can draw. Fix these problems in the file first:</p>
        <Diagnostics diagnostics={detail.data.diagnostics} />
      </div>
    );
  }
  if (layoutError !== null) return <div className="error-box">The automatic layout failed: {layoutError}</div>;
  if (openDoc === null || openId !== id) return <div className="loading">Laying out {detail.data.definition.steps.length} steps…</div>;
  return (
    <ReactFlowProvider>
      <EditorWorkbench detail={detail.data} />
    </ReactFlowProvider>
  );
}

/** Where the canvas puts each step of a freshly opened document. */
async function basePositionsFor(workflow: Workflow) {
  return filePositions(workflow) ?? (await autoLayout(workflow));
}
