// The editor's one store: the workflow document being edited (with undo and redo by zundo), what
// is selected, the overlay shown over the canvas, and the canvas's view while it is mounted.
// Every change to the document goes through `edit`, so every change is undoable; how edits are
// grouped into undo steps (a drag, typing in one field) is kept here too, not in module state.
// History holds the document only: selecting never makes an undo step.
import { create, useStore } from 'zustand';
import { temporal, type TemporalState } from 'zundo';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Layout, Point } from './doc-ops.ts';
import type { EditorHost } from './editor-host-port.ts';

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

/** The canvas's camera, registered by the canvas while it is mounted. */
export interface EditorView {
  /** The centre of the canvas, on screen and in flow coordinates. */
  centre(): { screen: Point; flow: Point };
  fitAll(): void;
  /** Fits these steps into view; a step added just now is fitted once the canvas has it. */
  fitSteps(ids: string[], options: { padding: number; maxZoom: number }): void;
  /** Brings these steps into view when they are not: a pan at the same zoom, zoomed out only if they do not fit. */
  reveal(ids: string[]): void;
  zoomIn(): void;
  zoomOut(): void;
}

/** What shows over the canvas: at most one at a time. */
export type EditorOverlay = { kind: 'cheatSheet' } | { kind: 'palette'; at: Point } | { kind: 'newWorkflow' } | { kind: 'connect'; from: string } | null;

export interface SaveMessage {
  kind: 'ok' | 'info' | 'error';
  text: string;
}

/** An undo group being extended: edits with this key within the window make one undo step. */
interface UndoGroup {
  key: string;
  at: number;
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
  overlay: EditorOverlay;
  /** An auto-layout is being computed. */
  laying: boolean;
  saving: { busy: boolean; message: SaveMessage | null };
  view: EditorView | null;
  /** The page's services to the commands, installed by the workbench. */
  host: EditorHost | null;
  /** The last grouped edit, which the next edit of the same group extends. */
  undoGroup: UndoGroup | null;
  /** The document as a gesture (a drag) began; null when no gesture is under way. */
  gestureStart: Workflow | null;

  open(doc: Workflow, source: EditorSource, basePositions: Layout): void;
  /** Applies an undoable change. Edits with the same `group` within two seconds make one undo step. */
  edit(change: (doc: Workflow) => Workflow, group?: string): void;
  /** Drags and other gestures: everything between begin and end is one undo step. */
  beginGesture(): void;
  endGesture(): void;
  setBasePositions(positions: Layout): void;
  markSaved(doc: Workflow, source: EditorSource): void;
  select(selection: Selection): void;
  show(overlay: EditorOverlay): void;
  setLaying(laying: boolean): void;
  setSaving(saving: Partial<EditorState['saving']>): void;
  setView(view: EditorView | null): void;
  setHost(host: EditorHost | null): void;
  close(): void;
}

const GROUP_WINDOW_MS = 2000;
const IDLE = { overlay: null, laying: false, saving: { busy: false, message: null }, undoGroup: null, gestureStart: null } as const;

export const useEditor = create<EditorState>()(
  temporal(
    (set, get) => ({
      doc: null,
      saved: null,
      source: null,
      basePositions: {},
      openedLayout: null,
      selection: NO_SELECTION,
      ...IDLE,
      view: null,
      host: null,

      open(doc, source, basePositions) {
        set({ doc, saved: doc, source, basePositions, openedLayout: doc.layout, selection: NO_SELECTION, ...IDLE });
        useEditor.temporal.getState().clear();
      },
      edit(change, group) {
        const { doc, undoGroup } = get();
        if (doc === null) return;
        const next = change(doc);
        if (next === doc) return;
        const now = Date.now();
        const merge = group !== undefined && undoGroup !== null && undoGroup.key === group && now - undoGroup.at < GROUP_WINDOW_MS;
        const nextGroup = group === undefined ? null : { key: group, at: now };
        if (merge) {
          const history = useEditor.temporal.getState();
          history.pause();
          set({ doc: next, undoGroup: nextGroup });
          history.resume();
        } else {
          set({ doc: next, undoGroup: nextGroup });
        }
      },
      beginGesture() {
        set({ gestureStart: get().doc, undoGroup: null });
        useEditor.temporal.getState().pause();
      },
      endGesture() {
        const history = useEditor.temporal.getState();
        const before = get().gestureStart;
        const doc = get().doc;
        if (before !== null && doc !== null && doc !== before) {
          // One undo step for the whole gesture: put the document back as it was when the gesture
          // began (unrecorded, history is paused), then apply where it ended as one recorded change.
          set({ doc: before, gestureStart: null });
          history.resume();
          set({ doc });
        } else {
          set({ gestureStart: null });
          history.resume();
        }
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
      show(overlay) {
        set({ overlay });
      },
      setLaying(laying) {
        set({ laying });
      },
      setSaving(saving) {
        set({ saving: { ...get().saving, ...saving } });
      },
      setView(view) {
        set({ view });
      },
      setHost(host) {
        set({ host });
      },
      close() {
        set({ doc: null, saved: null, source: null, selection: NO_SELECTION, basePositions: {}, openedLayout: null, ...IDLE });
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
