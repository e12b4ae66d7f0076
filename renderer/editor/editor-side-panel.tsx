// The right-hand panel: the inspector of the selection, with the data handoffs of the selected
// step or edge under its form, and the workflow's version history.
import { useState } from 'react';
import type { WorkflowDetail } from '../api/api-types.ts';
import { useEditor } from './editor-store.ts';
import { Inspector } from './inspector/inspector.tsx';
import { HandoffsPanel, type HandoffSelection } from './handoffs-panel.tsx';
import { HistoryPanel } from './history-panel.tsx';

type Tab = 'inspect' | 'history';

export function EditorSidePanel({ detail, onCompare }: { detail: WorkflowDetail; onCompare(a: number | 'saved', b: number | 'saved' | 'editor'): void }) {
  const [tab, setTab] = useState<Tab>('inspect');
  return (
    <aside className="panel editor-panel" aria-label="inspector">
      <div className="panel-tabs" role="tablist" aria-label="side panel">
        <button type="button" role="tab" aria-selected={tab === 'inspect'} onClick={() => setTab('inspect')} data-testid="tab-inspect">
          Inspector
        </button>
        <button type="button" role="tab" aria-selected={tab === 'history'} onClick={() => setTab('history')} data-testid="tab-history">
          History
        </button>
      </div>
      {tab === 'inspect' ? <Inspector extra={<Handoffs />} /> : <HistoryPanel detail={detail} onCompare={onCompare} />}
    </aside>
  );
}

function Handoffs() {
  const doc = useEditor((s) => s.doc);
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
        useEditor.getState().requestReveal({ stepId: id });
      }}
      onApplyFix={(next) => useEditor.getState().edit(() => next)}
      onFocusSite={(site) => useEditor.getState().requestFocus(site)}
    />
  );
}
