// The right-hand panel: the inspector of the selection (interim: the read-only facts).
import type { WorkflowDetail } from '../api/api-types.ts';
import { useEditor } from './editor-store.ts';
import { StepFacts } from '../workflows/step-facts.tsx';

export function EditorSidePanel({ detail }: { detail: WorkflowDetail }) {
  const doc = useEditor((s) => s.doc);
  const selection = useEditor((s) => s.selection);
  if (doc === null) return null;
  const step = selection.steps.length === 1 ? selection.steps[0] : undefined;
  return (
    <aside className="panel editor-panel" aria-label="inspector">
      {step !== undefined ? <StepFacts workflow={doc} stepId={step} /> : <div className="panel-section">{detail.summary.file}</div>}
    </aside>
  );
}
