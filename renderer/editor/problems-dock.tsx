// The Problems panel under the canvas (live validation), and the per-step and per-edge problem
// maps the canvas draws as badges.
import { useEffect } from 'react';
import type { Diagnostic } from '../api/api-types.ts';
import { useValidation, watchValidation } from './validation/validation-store.ts';
import { ProblemsPanel } from './validation/problems-panel.tsx';

export function useProblemMaps(): { problemsByStep: Readonly<Record<string, readonly Diagnostic[]>>; problemsByEdge: Readonly<Record<string, readonly Diagnostic[]>> } {
  const problemsByStep = useValidation((s) => s.byStep);
  const problemsByEdge = useValidation((s) => s.byEdge);
  return { problemsByStep, problemsByEdge };
}

/** Starts live validation of the open document for as long as the editor is mounted. */
export function useLiveValidation(): void {
  useEffect(() => watchValidation(), []);
}

export function ProblemsDock() {
  return (
    <div className="problems-dock">
      <ProblemsPanel />
    </div>
  );
}
