// The editor's one store: the workflow document being edited (with undo and redo by zundo),
// what is selected, and requests to other panels (focus a field, reveal an element). Every
// change to the document goes through `edit`, so every change is undoable. History holds the
// document only: selecting never makes an undo step.
import { create, useStore } from 'zustand';
import { temporal, type TemporalState } from 'zundo';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Layout } from './doc-ops.ts';

export interface Selection {
  steps: string[];
  edges: string[];
}

export const NO_SELECTION: Selection = { steps: [], edges: [] };

/** Where the editor's document came from, and the file it saves to. */
export interface EditorSource {
  /** The workflow id the file had when opened (the API addresses the file by it). */
  workflowId: string;
  file: string;
  /** Hash of the file text as loaded or last saved: the server refuses a save over a changed file. */
  hash: string | null;
}

export interface EditorState {
  doc: Workflow | null;
  /** The document as last loaded or saved; `doc !== saved` means unsaved changes. */
  saved: Workflow | null;
  source: EditorSource | null;
  /** Positions the canvas shows for a document whose `layout` the editor has not written yet. */
  basePositions: Layout;
  /** The `layout` object of the document as opened: while `doc.layout` is still it, basePositions apply. */
  openedLayout: Workflow['layout'] | null;
  selection: Selection;
  /** The inspector focuses the field at this JSON path ($.steps[2].input) when seq changes. */
  focusRequest: { site: string; seq: number } | null;
  /** The canvas centres on this step or edge when seq changes. */
  revealRequest: { stepId?: string; edgeId?: string; seq: number } | null;

  open(doc: Workflow, source: EditorSource, basePositions: Layout): void;
  /** Applies an undoable change. Edits with the same `group` within two seconds make one undo step. */
  edit(change: (doc: Workflow) => Workflow, group?: string): void;
  /** Drags and other gestures: everything between begin and end is one undo step. */
  beginGesture(): void;
  endGesture(): void;
  setBasePositions(positions: Layout): void;
  markSaved(doc: Workflow, source: EditorSource): void;
  select(selection: Selection): void;
  requestFocus(site: string): void;
  requestReveal(target: { stepId?: string; edgeId?: string }): void;
  close(): void;
}

const GROUP_WINDOW_MS = 2000;
let lastGroup: { key: string; at: number } | null = null;
let gestureStart: Workflow | null = null;
let seq = 0;

export const useEditor = create<EditorState>()(
  temporal(
    (set, get) => ({
      doc: null,
      saved: null,
      source: null,
      basePositions: {},
      openedLayout: null,
      selection: NO_SELECTION,
      focusRequest: null,
      revealRequest: null,

      open(doc, source, basePositions) {
        lastGroup = null;
        set({ doc, saved: doc, source, basePositions, openedLayout: doc.layout, selection: NO_SELECTION, focusRequest: null, revealRequest: null });
        useEditor.temporal.getState().clear();
      },
      edit(change, group) {
        const doc = get().doc;
        if (doc === null) return;
        const next = change(doc);
        if (next === doc) return;
        const now = Date.now();
        const merge = group !== undefined && lastGroup !== null && lastGroup.key === group && now - lastGroup.at < GROUP_WINDOW_MS;
        lastGroup = group === undefined ? null : { key: group, at: now };
        if (merge) {
          const history = useEditor.temporal.getState();
          history.pause();
          set({ doc: next });
          history.resume();
        } else {
          set({ doc: next });
        }
      },
      beginGesture() {
        gestureStart = get().doc;
        lastGroup = null;
        useEditor.temporal.getState().pause();
      },
      endGesture() {
        const history = useEditor.temporal.getState();
        history.resume();
        const before = gestureStart;
        gestureStart = null;
        const doc = get().doc;
        if (before === null || doc === before) return;
        // One undo step for the whole gesture: the document as it was when the gesture began.
        useEditor.temporal.setState((t) => ({ pastStates: [...t.pastStates, { doc: before }], futureStates: [] }));
      },
      setBasePositions(positions) {
        set({ basePositions: positions });
      },
      markSaved(doc, source) {
        // The saved text may differ in form only (key order): not an undo step of its own.
        const history = useEditor.temporal.getState();
        history.pause();
        set({ doc, saved: doc, source });
        history.resume();
      },
      select(selection) {
        set({ selection });
      },
      requestFocus(site) {
        set({ focusRequest: { site, seq: ++seq } });
      },
      requestReveal(target) {
        set({ revealRequest: { ...target, seq: ++seq } });
      },
      close() {
        set({ doc: null, saved: null, source: null, selection: NO_SELECTION, basePositions: {}, openedLayout: null });
        useEditor.temporal.getState().clear();
      },
    }),
    {
      partialize: (state) => ({ doc: state.doc }),
      equality: (a, b) => a.doc === b.doc,
      limit: 500,
    },
  ),
);

/** Reads the undo history (for enabling the undo and redo buttons). */
export function useHistory<T>(selector: (history: TemporalState<{ doc: Workflow | null }>) => T): T {
  return useStore(useEditor.temporal, selector);
}

export const undo = (): void => useEditor.temporal.getState().undo();
export const redo = (): void => useEditor.temporal.getState().redo();

/** The position the canvas shows for each step of `doc`. */
export function positionsOf(doc: Workflow, basePositions: Layout, openedLayout: Workflow['layout'] | null): Layout {
  if (doc.layout === undefined || doc.layout === openedLayout) return basePositions;
  return doc.layout;
}

export const isDirty = (s: Pick<EditorState, 'doc' | 'saved'>): boolean => s.doc !== null && s.doc !== s.saved;
