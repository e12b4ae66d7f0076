// Saving the open document: renames the file first when the workflow id was changed, then writes
// it (the server formats it canonically, and writes version N+1 when version N has run). The
// answer becomes the saved document; edits made while the save was in flight stay unsaved.
import { useCallback, useState } from 'react';
import { ApiError } from '../api/api-client.ts';
import { requireFiles } from '../core/session-store.ts';
import { useRoute } from '../core/route-store.ts';
import { useWorkflows } from '../core/workflows-store.ts';
import { useEditor } from './editor-store.ts';

export interface SaveMessage {
  kind: 'ok' | 'info' | 'error';
  text: string;
}

export function useSaving(): { busy: boolean; message: SaveMessage | null; save(): Promise<void>; note(kind: SaveMessage['kind'], text: string): void } {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const save = useCallback(async () => {
    const state = useEditor.getState();
    const doc = state.doc;
    const source = state.source;
    if (doc === null || source === null) return;
    setBusy(true);
    setMessage(null);
    try {
      const files = requireFiles();
      let hash = source.hash ?? undefined;
      const renamed = doc.id !== source.workflowId;
      if (renamed) hash = (await files.rename(source.workflowId, doc.id)).hash;
      const result = await files.save(doc, hash);
      const now = useEditor.getState();
      const saved = result.definition;
      const nextSource = { workflowId: saved.id, file: result.summary.file, hash: result.hash };
      if (now.doc === doc) now.markSaved(saved, nextSource);
      else useEditor.setState({ saved, source: nextSource, doc: now.doc === null ? null : { ...now.doc, version: result.version } });
      setMessage(
        result.bumped !== undefined
          ? { kind: 'info', text: `Saved as v${result.bumped.to}: v${result.bumped.from} has run and stays as it ran` }
          : result.unchanged
            ? { kind: 'ok', text: 'No changes: the file already holds this' }
            : { kind: 'ok', text: `Saved v${result.version}` },
      );
      void useWorkflows.getState().refresh();
      if (renamed) useRoute.getState().go({ page: 'workflow', id: saved.id });
    } catch (error) {
      const text =
        error instanceof ApiError && error.code === 'refused'
          ? `Not saved: ${error.message}. Your changes are kept as a draft.`
          : `Not saved: ${error instanceof Error ? error.message : String(error)}`;
      setMessage({ kind: 'error', text });
    } finally {
      setBusy(false);
    }
  }, []);
  const note = useCallback((kind: SaveMessage['kind'], text: string) => setMessage({ kind, text }), []);
  return { busy, message, save, note };
}
