// Narrow subscriptions for the canvas: a node or edge reads only its own problems, and gets the
// same array back while they are unchanged (see group-diagnostics.ts), so it re-renders only
// when its own problems change.
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { useValidation } from './validation-store.ts';

const NONE: readonly Diagnostic[] = Object.freeze([]);

export const useStepProblems = (stepId: string): readonly Diagnostic[] => useValidation((s) => s.byStep[stepId] ?? NONE);

export const useEdgeProblems = (edgeId: string): readonly Diagnostic[] => useValidation((s) => s.byEdge[edgeId] ?? NONE);

export const useWorkflowProblems = (): readonly Diagnostic[] => useValidation((s) => s.workflowLevel);
