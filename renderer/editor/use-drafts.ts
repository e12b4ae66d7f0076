// Keeps a draft of unsaved work (drafts.ts) while the document differs from the saved file, warns
// before the tab is closed with unsaved changes, and finds a draft left by an earlier tab.
import { useEffect, useState } from 'react';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { useSession } from '../core/session-store.ts';
import { isDirty, useEditor } from './editor-store.ts';
import { dropDraft, readDraft, writeDraft } from './drafts.ts';

const DRAFT_DEBOUNCE_MS = 400;

export interface FoundDraft {
  savedAtMs: number;
  definition: Workflow;
}

export function useDrafts(workflowId: string): { found: FoundDraft | null; restore(): void; discard(): void } {
  const workspace = useSession((s) => s.health?.workspace ?? 'default');
  const [found, setFound] = useState<FoundDraft | null>(null);

  // Offered once, when the workflow opens: a draft whose document differs from the file's.
  useEffect(() => {
    const draft = readDraft(workspace, workflowId);
    if (draft === null) return;
    const parsed = Workflow.safeParse(draft.definition);
    const saved = useEditor.getState().saved;
    if (!parsed.success || saved === null || JSON.stringify(parsed.data) === JSON.stringify(saved)) {
      dropDraft(workspace, workflowId);
      return;
    }
    setFound({ savedAtMs: draft.savedAtMs, definition: parsed.data });
  }, [workspace, workflowId]);

  // Written while there are unsaved changes, removed once there are none.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = useEditor.subscribe((state, previous) => {
      if (state.doc === previous.doc && state.saved === previous.saved) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const now = useEditor.getState();
        if (now.doc === null) return;
        if (isDirty(now)) writeDraft(workspace, workflowId, { baseHash: now.source?.hash ?? null, savedAtMs: Date.now(), definition: now.doc });
        else dropDraft(workspace, workflowId);
      }, DRAFT_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [workspace, workflowId]);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty(useEditor.getState())) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  return {
    found,
    restore() {
      if (found === null) return;
      const definition = found.definition;
      useEditor.getState().edit(() => definition);
      setFound(null);
    },
    discard() {
      dropDraft(workspace, workflowId);
      setFound(null);
    },
  };
}
