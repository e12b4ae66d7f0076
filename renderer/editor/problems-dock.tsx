// The Problems dock under the canvas (live validation; folded to a bar while there are no
// problems, problems-dock-store.ts), and the per-step and per-edge problem
// maps the canvas draws as badges.
import { useEffect } from 'react';
import type { Diagnostic } from '../api/api-types.ts';
import { useValidation, watchValidation } from './validation/validation-store.ts';
import { useWorkspacePolicyRules } from '../policy/policy-store.ts';
import { ProblemsPanel } from './validation/problems-panel.tsx';
import { useProblemsDock } from './problems-dock-store.ts';

export function useProblemMaps(): { problemsByStep: Readonly<Record<string, readonly Diagnostic[]>>; problemsByEdge: Readonly<Record<string, readonly Diagnostic[]>> } {
  const problemsByStep = useValidation((s) => s.byStep);
  const problemsByEdge = useValidation((s) => s.byEdge);
  return { problemsByStep, problemsByEdge };
}

/** Starts live validation of the open document for as long as the editor is mounted. */
export function useLiveValidation(): void {
  useWorkspacePolicyRules();
  useEffect(() => watchValidation(), []);
}

/** The Problems panel under the canvas: open while there are problems, a one-line bar when none. */
export function ProblemsDock() {
  const count = useValidation((s) => s.diagnostics.length);
  const open = useProblemsDock((s) => s.open);
  useEffect(() => useProblemsDock.getState().follow(count), [count]);
  return (
    <div className="problems-dock" data-open={open ? 'true' : 'false'} data-testid="problems-dock">
      <ProblemsPanel fold={{ open, toggle: () => useProblemsDock.getState().toggle() }} />
    </div>
  );
}
