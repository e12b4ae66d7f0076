// The editor's frame around one open document: toolbar, palette, canvas, inspector, Problems,
// and the keyboard commands that act on them.
import { useCallback, useEffect, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { Grid3x3, Keyboard, LayoutGrid, Maximize, Redo2, Save, Undo2 } from 'lucide-react';
import type { StepKind } from '../../shared/definition/names.ts';
import type { WorkflowDetail } from '../api/api-types.ts';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/to-flow.ts';
import { autoLayout } from '../graph/auto-layout.ts';
import { isDirty, NO_SELECTION, useHistory, positionsOf, redo, undo, useEditor, type Selection } from './editor-store.ts';
import { addStep, connect, copyElements, pasteClip, removeElements, withPositions } from './doc-ops.ts';
import { edgeOutcomesFor } from '../../shared/definition/kind-outcomes.ts';
import { EditorCanvas, FIT_VIEW_OPTIONS } from './editor-canvas.tsx';
import { PalettePopover, PaletteSidebar } from './palette.tsx';
import { commandForKey, type CommandId } from './editor-commands.ts';
import { CheatSheet } from './cheat-sheet.tsx';
import { readClip, writeClip } from './clipboard.ts';
import { useEditorPrefs } from './editor-prefs.ts';
import { EditorSidePanel } from './editor-side-panel.tsx';
import { ProblemsDock, useLiveValidation, useProblemMaps } from './problems-dock.tsx';
import { useSaving } from './use-saving.ts';
import { FileMenu } from './file-menu.tsx';
import { StartRunLauncher } from '../runs/actions/start-run-launcher.tsx';
import { useDrafts } from './use-drafts.ts';
import { useSidePanel } from './side-panel-store.ts';
import { useMenuHandlers } from '../core/menu-handlers.ts';
import { formatRoute, setLeaveGuard } from '../core/route-store.ts';
import { DiffView, type DiffSide } from './diff/diff-view.tsx';
import { requireClient } from '../core/session-store.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';

const PASTE_OFFSET = { x: 48, y: 48 };

export function EditorWorkbench({ detail }: { detail: WorkflowDetail }) {
  const flow = useReactFlow();
  const doc = useEditor((s) => s.doc);
  const dirty = useEditor(isDirty);
  const canUndo = useHistory((t) => t.pastStates.length > 0);
  const canRedo = useHistory((t) => t.futureStates.length > 0);
  const prefs = useEditorPrefs();
  const [cheatSheet, setCheatSheet] = useState(false);
  const [palette, setPalette] = useState<{ x: number; y: number } | null>(null);
  const [laying, setLaying] = useState(false);
  useLiveValidation();
  const { problemsByStep, problemsByEdge } = useProblemMaps();
  const saving = useSaving();
  const drafts = useDrafts(detail.summary.id ?? '');

  // Leaving for another page of the app with unsaved changes asks first (a draft is kept either way).
  useEffect(() => {
    setLeaveGuard((to) => {
      const state = useEditor.getState();
      if (!isDirty(state) || formatRoute(to) === window.location.hash) return true;
      return window.confirm(`${state.doc?.name ?? 'This workflow'} has unsaved changes. Leave it? They are kept as a draft and offered when you open it again.`);
    });
    return () => setLeaveGuard(null);
  }, []);
  const [compare, setCompare] = useState<{ a: DiffSide; b: DiffSide } | null>(null);
  const [compareError, setCompareError] = useState<string | null>(null);

  const openCompare = useCallback(
    (a: number | 'saved', b: number | 'saved' | 'editor') => {
      const workflowId = useEditor.getState().source?.workflowId;
      const side = async (which: number | 'saved' | 'editor'): Promise<DiffSide> => {
        const state = useEditor.getState();
        if (which === 'editor' && state.doc !== null) return { label: 'editor', workflow: state.doc };
        if (which === 'saved' && state.saved !== null) return { label: `v${state.saved.version} saved`, workflow: state.saved };
        if (typeof which !== 'number' || workflowId === undefined) throw new Error('nothing to compare');
        const stored = await requireClient().workflowVersion(workflowId, which);
        return { label: `v${which}`, workflow: stored.definition };
      };
      setCompareError(null);
      Promise.all([side(a), side(b)]).then(
        ([left, right]) => setCompare({ a: left, b: right }),
        (error: unknown) => setCompareError(error instanceof Error ? error.message : String(error)),
      );
    },
    [],
  );

  const viewCentre = useCallback(() => {
    const pane = document.querySelector('[data-testid="editor-canvas"]')?.getBoundingClientRect();
    const x = pane === undefined ? window.innerWidth / 2 : pane.left + pane.width / 2;
    const y = pane === undefined ? window.innerHeight / 2 : pane.top + pane.height / 2;
    return { screen: { x, y }, flow: flow.screenToFlowPosition({ x, y }) };
  }, [flow]);

  const addKind = useCallback(
    (kind: StepKind) => {
      setPalette(null);
      const state = useEditor.getState();
      const current = state.doc;
      if (current === null) return;
      const base = positionsOf(current, state.basePositions, state.openedLayout);
      // With one step selected, the new step goes to its right and follows it.
      const after = state.selection.steps.length === 1 ? state.selection.steps[0] : undefined;
      const afterPos = after === undefined ? undefined : base[after];
      const at = afterPos !== undefined ? { x: afterPos.x + NODE_WIDTH + 80, y: afterPos.y } : { x: viewCentre().flow.x - NODE_WIDTH / 2, y: viewCentre().flow.y - NODE_HEIGHT / 2 };
      let id = '';
      state.edit((d) => {
        const added = addStep(d, kind, at, base);
        id = added.id;
        const from = after === undefined ? undefined : added.doc.steps.find((s) => s.id === after);
        const outcome = from === undefined ? undefined : edgeOutcomesFor(from)[0];
        return from === undefined || outcome === undefined ? added.doc : connect(added.doc, from.id, id, [outcome]).doc;
      });
      state.select({ steps: [id], edges: [] });
      state.requestReveal({ stepId: id });
    },
    [viewCentre],
  );

  const run = useCallback(
    (command: CommandId) => {
      const state = useEditor.getState();
      const current = state.doc;
      if (current === null) return;
      const base = positionsOf(current, state.basePositions, state.openedLayout);
      const { steps, edges } = state.selection;
      switch (command) {
        case 'save':
          void saving.save();
          return;
        case 'undo':
          undo();
          return;
        case 'redo':
          redo();
          return;
        case 'delete':
          state.edit((d) => removeElements(d, steps, edges));
          state.select({ steps: [], edges: [] });
          return;
        case 'copy':
        case 'cut': {
          const clip = copyElements(current, steps, base);
          if (clip === null) return;
          writeClip(clip);
          if (command === 'cut') {
            state.edit((d) => removeElements(d, steps, []));
            state.select({ steps: [], edges: [] });
          }
          return;
        }
        case 'paste':
        case 'duplicate': {
          const clip = command === 'paste' ? readClip() : copyElements(current, steps, base);
          if (clip === null) return;
          let pasted: Selection = NO_SELECTION;
          state.edit((d) => {
            const out = pasteClip(d, clip, PASTE_OFFSET, base);
            pasted = { steps: out.steps, edges: out.edges };
            return out.doc;
          });
          state.select(pasted);
          return;
        }
        case 'selectAll':
          state.select({ steps: current.steps.map((s) => s.id), edges: current.edges.map((e) => e.id) });
          return;
        case 'clearSelection':
          if (cheatSheet) setCheatSheet(false);
          else if (palette !== null) setPalette(null);
          else state.select({ steps: [], edges: [] });
          return;
        case 'addStep':
          setPalette(viewCentre().screen);
          return;
        case 'autoLayout':
          setLaying(true);
          autoLayout(current)
            .then((positions) => useEditor.getState().edit((d) => withPositions(d, positions, positions)))
            .finally(() => setLaying(false))
            .then(() => flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 250 }), () => undefined);
          return;
        case 'fitView':
          void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 250 });
          return;
        case 'zoomSelection':
          if (steps.length > 0) void flow.fitView({ nodes: steps.map((id) => ({ id })), duration: 250, padding: 0.4, maxZoom: 1.4 });
          return;
        case 'zoomIn':
          void flow.zoomIn({ duration: 150 });
          return;
        case 'zoomOut':
          void flow.zoomOut({ duration: 150 });
          return;
        case 'toggleSnap':
          prefs.toggle('snapToGrid');
          return;
        case 'toggleProblems':
          prefs.toggle('showProblems');
          return;
        case 'togglePalette':
          prefs.toggle('showPalette');
          return;
        case 'cheatSheet':
          setCheatSheet((open) => !open);
          return;
      }
    },
    [cheatSheet, palette, viewCentre, flow, prefs, saving],
  );

  // The desktop menus reach the same commands as the keys.
  useMenuHandlers({
    'file.save': () => run('save'),
    'edit.undo': () => run('undo'),
    'edit.redo': () => run('redo'),
    'help.shortcuts': () => setCheatSheet(true),
    'view.panel.problems': () => run('toggleProblems'),
    'view.panel.history': () => useSidePanel.getState().show('history'),
    'view.panel.inspector': () => useSidePanel.getState().show('inspect'),
    'view.panel.handoffs': () => {
      useSidePanel.getState().show('inspect');
      const { steps, edges } = useEditor.getState().selection;
      if (steps.length + edges.length !== 1) return 'Select one step or edge: its data handoffs show under the inspector.';
      // The panel renders with the tab; bring it into view once it is there.
      requestAnimationFrame(() => document.querySelector('[data-testid="handoffs"]')?.scrollIntoView({ block: 'nearest' }));
    },
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target;
      const inField = target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
      // Popovers and dialogs handle their own keys.
      if (target instanceof HTMLElement && target.closest('[role="dialog"]') !== null && event.key !== 'Escape') return;
      const command = commandForKey(event, inField);
      if (command === undefined) return;
      event.preventDefault();
      run(command.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);

  if (doc === null) return null;
  return (
    <div className="editor" data-testid="editor" data-dirty={dirty ? 'true' : 'false'}>
      <div className="editor-toolbar" role="toolbar" aria-label="editor">
        <div className="editor-title">
          <span className="editor-name">{doc.name}</span>
          <span className="editor-version" data-testid="editor-version">v{doc.version}</span>
          {dirty ? (
            <span className="editor-dirty" data-testid="unsaved" title="unsaved changes">
              unsaved
            </span>
          ) : null}
          {saving.message !== null ? (
            <span className="editor-saved" role="status" data-testid="save-status" data-kind={saving.message.kind}>
              {saving.message.text}
            </span>
          ) : null}
        </div>
        <div className="toolbar-group">
          <button type="button" className="icon-button" onClick={() => run('undo')} disabled={!canUndo} aria-label="undo" title="Undo (Ctrl+Z)" data-testid="undo">
            <Undo2 size={15} aria-hidden="true" />
          </button>
          <button type="button" className="icon-button" onClick={() => run('redo')} disabled={!canRedo} aria-label="redo" title="Redo (Ctrl+Shift+Z)" data-testid="redo">
            <Redo2 size={15} aria-hidden="true" />
          </button>
        </div>
        <div className="toolbar-group">
          <button type="button" className="icon-button" onClick={() => run('autoLayout')} disabled={laying} aria-label="auto-layout" title="Auto-layout (L)" data-testid="auto-layout">
            <LayoutGrid size={15} aria-hidden="true" />
          </button>
          <button type="button" className="icon-button" onClick={() => run('fitView')} aria-label="fit view" title="Fit view (F)">
            <Maximize size={15} aria-hidden="true" />
          </button>
          <button type="button" className="icon-button" onClick={() => run('toggleSnap')} aria-pressed={prefs.snapToGrid} aria-label="snap to grid" title="Snap to grid (G)" data-testid="snap">
            <Grid3x3 size={15} aria-hidden="true" />
          </button>
          <button type="button" className="icon-button" onClick={() => run('cheatSheet')} aria-label="keyboard shortcuts" title="Keyboard shortcuts (?)">
            <Keyboard size={15} aria-hidden="true" />
          </button>
        </div>
        <div className="toolbar-spacer" />
        <span className="faint mono editor-file" title={detail.summary.file}>
          {detail.summary.file}
        </span>
        <FileMenu onSave={saving.save} onMessage={saving.note} />
        {detail.summary.id !== null ? <StartRunLauncher workflowId={detail.summary.id} /> : null}
        <button type="button" className="button button-primary" onClick={() => run('save')} disabled={saving.busy} data-testid="save" title="Save (Ctrl+S)">
          <Save size={14} aria-hidden="true" /> Save
        </button>
      </div>
      {drafts.found !== null ? (
        <div className="banner draft-banner" role="status" data-testid="draft-banner">
          Unsaved changes from {new Date(drafts.found.savedAtMs).toLocaleString()} were kept.
          <button type="button" className="button button-primary" onClick={drafts.restore} data-testid="draft-restore">
            Restore them
          </button>
          <button type="button" className="button" onClick={drafts.discard} data-testid="draft-discard">
            Discard
          </button>
        </div>
      ) : null}
      {compareError !== null ? (
        <div className="error-box" role="alert">
          Could not compare: {compareError}
        </div>
      ) : null}
      {compare !== null ? (
        <DiffView a={compare.a} b={compare.b} positions={positionsOfDoc(doc)} onClose={() => setCompare(null)} />
      ) : (
      <div className="editor-body" data-palette={prefs.showPalette ? 'open' : 'closed'}>
        {prefs.showPalette ? <PaletteSidebar onAdd={addKind} /> : null}
        <div className="editor-center">
          <EditorCanvas problemsByStep={problemsByStep} problemsByEdge={problemsByEdge} />
          {prefs.showProblems ? <ProblemsDock /> : null}
        </div>
        <EditorSidePanel detail={detail} onCompare={openCompare} />
      </div>
      )}
      {palette !== null ? <PalettePopover at={palette} title="Add a step" onPick={addKind} onCancel={() => setPalette(null)} /> : null}
      {cheatSheet ? <CheatSheet onClose={() => setCheatSheet(false)} /> : null}
    </div>
  );
}

function positionsOfDoc(doc: Workflow) {
  const s = useEditor.getState();
  return positionsOf(doc, s.basePositions, s.openedLayout);
}
