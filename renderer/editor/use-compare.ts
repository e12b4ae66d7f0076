// Comparing two versions of the open workflow (from the History tab): loads both sides, then the
// diff view replaces the canvas until it is closed.
import { useCallback, useState } from 'react';
import { fetchWorkflowVersion } from '../core/workflow-queries.ts';
import { useEditor } from './editor-store.ts';
import type { DiffSide } from './diff/diff-view.tsx';

export type CompareSide = number | 'saved' | 'editor';

export function useCompare(): {
  compare: { a: DiffSide; b: DiffSide } | null;
  error: string | null;
  open(a: number | 'saved', b: CompareSide): void;
  close(): void;
} {
  const [compare, setCompare] = useState<{ a: DiffSide; b: DiffSide } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = useCallback((a: number | 'saved', b: CompareSide) => {
    const workflowId = useEditor.getState().source?.workflowId;
    const side = async (which: CompareSide): Promise<DiffSide> => {
      const state = useEditor.getState();
      if (which === 'editor' && state.doc !== null) return { label: 'editor', workflow: state.doc };
      if (which === 'saved' && state.saved !== null) return { label: `v${state.saved.version} saved`, workflow: state.saved };
      if (typeof which !== 'number' || workflowId === undefined) throw new Error('nothing to compare');
      const stored = await fetchWorkflowVersion(workflowId, which);
      return { label: `v${which}`, workflow: stored.definition };
    };
    setError(null);
    Promise.all([side(a), side(b)]).then(
      ([left, right]) => setCompare({ a: left, b: right }),
      (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
    );
  }, []);
  const close = useCallback(() => setCompare(null), []);
  return { compare, error, open, close };
}
