// The right-hand panel: the inspector of the selection, with the data handoffs of the selected
// step or edge under its form, and the workflow's version history.
import { useEffect, useState } from 'react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { WorkflowDetail } from '../api/api-types.ts';
import { useEditor } from './editor-store.ts';
import { runCommand } from './editor-commands.ts';
import { focusFieldCommand, revealCommand } from './step-commands.ts';
import { Inspector } from './inspector/inspector.tsx';
import { HandoffsPanel, type HandoffSelection } from './handoffs-panel.tsx';
import { HistoryPanel } from './history-panel.tsx';
import { useSidePanel } from './side-panel-store.ts';
import { FoldButton } from './panel-fold.tsx';
import { PanelRightClose } from 'lucide-react';

export function EditorSidePanel({ detail, onCompare }: { detail: WorkflowDetail; onCompare(a: number | 'saved', b: number | 'saved' | 'editor'): void }) {
  const tab = useSidePanel((s) => s.tab);
  const setTab = useSidePanel((s) => s.show);
  return (
    <aside className="panel editor-panel" id="editor-side-panel" aria-label="editor panel">
      {/* The fold button sits beside the tablist, not in it: a tablist holds only tabs (axe's aria-required-children). */}
      <div className="panel-tabs">
        <div className="panel-tabs-list" role="tablist" aria-label="side panel">
          <button type="button" role="tab" aria-selected={tab === 'inspect'} onClick={() => setTab('inspect')} data-testid="tab-inspect">
            Inspector
          </button>
          <button type="button" role="tab" aria-selected={tab === 'history'} onClick={() => setTab('history')} data-testid="tab-history">
            History
          </button>
        </div>
        <span className="toolbar-spacer" />
        <FoldButton command="toggleInspector" label="Hide inspector" expanded controls="editor-side-panel" testId="inspector-hide">
          <PanelRightClose size={15} aria-hidden="true" />
        </FoldButton>
      </div>
      {tab === 'inspect' ? <Inspector extra={<Handoffs />} /> : <HistoryPanel detail={detail} onCompare={onCompare} />}
    </aside>
  );
}

/** The document as of a pause in editing: the handoff analysis is not redone per keystroke. */
function useSettledDoc(delayMs: number): Workflow | null {
  const doc = useEditor((s) => s.doc);
  const [settled, setSettled] = useState(doc);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(doc), delayMs);
    return () => clearTimeout(timer);
  }, [doc, delayMs]);
  return settled;
}

function Handoffs() {
  const doc = useSettledDoc(200);
  const selection = useEditor((s) => s.selection);
  if (doc === null) return null;
  const only: HandoffSelection =
    selection.steps.length === 1 && selection.edges.length === 0 && selection.steps[0] !== undefined
      ? { kind: 'step', id: selection.steps[0] }
      : selection.edges.length === 1 && selection.steps.length === 0 && selection.edges[0] !== undefined
        ? { kind: 'edge', id: selection.edges[0] }
        : null;
  if (only === null) return null;
  return (
    <HandoffsPanel
      workflow={doc}
      selection={only}
      onSelectStep={(id) => {
        useEditor.getState().select({ steps: [id], edges: [] });
        runCommand(revealCommand, { stepId: id });
      }}
      // A fix is computed from the analysed document: it applies only while that is still the one open.
      onApplyFix={(next) => useEditor.getState().edit((current) => (current === doc ? next : current))}
      onFocusSite={(site) => void runCommand(focusFieldCommand, site)}
    />
  );
}
