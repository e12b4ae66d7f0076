// The editor's frame around one open document: toolbar, palette, canvas, inspector, Problems and
// the overlays. The palette and the inspector fold away to a rail, remembered (editor-prefs.ts),
// and the Problems dock folds to a bar when there are none, to give the canvas the room. Layout only: what the keys, buttons and menus do is in the command registry
// (editor-commands.ts), which this frame wires to the page while it is shown.
import type { StepKind } from '../../shared/definition/names.ts';
import type { WorkflowDetail } from '../api/api-types.ts';
import { positionsOf, useEditor } from './editor-store.ts';
import { EditorCanvas } from './editor-canvas.tsx';
import { PalettePopover, PaletteSidebar } from './palette.tsx';
import { runCommand } from './editor-commands.ts';
import { insertStepCommand } from './step-commands.ts';
import { useEditorCommands } from './use-editor-commands.ts';
import { CheatSheet } from './cheat-sheet.tsx';
import { focusWhenDrawn } from './canvas-keyboard.ts';
import { useEditorPrefs } from './editor-prefs.ts';
import { EditorSidePanel } from './editor-side-panel.tsx';
import { EditorToolbar } from './editor-toolbar.tsx';
import { PanelRail } from './panel-fold.tsx';
import { PanelLeftOpen, PanelRightOpen } from 'lucide-react';
import { ProblemsDock, useLiveValidation, useProblemMaps } from './problems-dock.tsx';
import { useDrafts } from './use-drafts.ts';
import { useLeaveGuard } from './use-leave-guard.ts';
import { useCompare } from './use-compare.ts';
import { DiffView } from './diff/diff-view.tsx';
import { NewWorkflowDialog } from '../files/new-workflow-dialog.tsx';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';

/** The palette's pick: a step of the kind after the selected step, or at the view's centre; the new step takes the focus. */
const addKind = (kind: StepKind): void => {
  runCommand(insertStepCommand, { kind });
  const added = useEditor.getState().selection.steps[0];
  if (added !== undefined) focusWhenDrawn({ kind: 'node', id: added });
};
const closeOverlay = (): void => useEditor.getState().show(null);

export function EditorWorkbench({ detail }: { detail: WorkflowDetail }) {
  const doc = useEditor((s) => s.doc);
  const dirty = useEditor((s) => s.doc !== null && s.doc !== s.saved);
  const overlay = useEditor((s) => s.overlay);
  const showPalette = useEditorPrefs((s) => s.showPalette);
  const showInspector = useEditorPrefs((s) => s.showInspector);
  useEditorCommands();
  useLiveValidation();
  useLeaveGuard();
  const { problemsByStep, problemsByEdge } = useProblemMaps();
  const drafts = useDrafts(detail.summary.id ?? '');
  const compare = useCompare();

  if (doc === null) return null;
  return (
    <div className="editor" data-testid="editor" data-dirty={dirty ? 'true' : 'false'}>
      <EditorToolbar summary={detail.summary} />
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
      {compare.error !== null ? (
        <div className="error-box" role="alert">
          Could not compare: {compare.error}
        </div>
      ) : null}
      {compare.compare !== null ? (
        <DiffView a={compare.compare.a} b={compare.compare.b} positions={positionsOfDoc(doc)} onClose={compare.close} />
      ) : (
        <div className="editor-body" data-palette={showPalette ? 'open' : 'closed'} data-inspector={showInspector ? 'open' : 'closed'}>
          {showPalette ? (
            <PaletteSidebar onAdd={addKind} />
          ) : (
            <PanelRail side="left" command="togglePalette" label="Show step palette" name="Steps" testId="palette-show" icon={<PanelLeftOpen size={15} aria-hidden="true" />} />
          )}
          <div className="editor-center">
            <EditorCanvas problemsByStep={problemsByStep} problemsByEdge={problemsByEdge} />
            <ProblemsDock />
          </div>
          {showInspector ? (
            <EditorSidePanel detail={detail} onCompare={compare.open} />
          ) : (
            <PanelRail side="right" command="toggleInspector" label="Show inspector" name="Inspector" testId="inspector-show" icon={<PanelRightOpen size={15} aria-hidden="true" />} />
          )}
        </div>
      )}
      {overlay?.kind === 'palette' ? <PalettePopover at={overlay.at} title="Add a step" onPick={addKind} onCancel={closeOverlay} /> : null}
      {overlay?.kind === 'cheatSheet' ? <CheatSheet onClose={closeOverlay} /> : null}
      {overlay?.kind === 'newWorkflow' ? <NewWorkflowDialog onClose={closeOverlay} /> : null}
    </div>
  );
}

function positionsOfDoc(doc: Workflow) {
  const s = useEditor.getState();
  return positionsOf(doc, s.basePositions, s.openedLayout);
}
