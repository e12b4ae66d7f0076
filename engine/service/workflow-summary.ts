// A workflow file as the Workflows list shows it: its id, version and name when it reads as a
// workflow, and the count of its errors and warnings.
import type { WorkflowSummary } from '../../shared/api/workflow-views.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';

export function summaryOf(file: string, workflow: Workflow | undefined, diagnostics: readonly Diagnostic[]): WorkflowSummary {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return {
    id: workflow?.id ?? null,
    file,
    version: workflow?.version ?? null,
    name: workflow?.name ?? null,
    stepCount: workflow?.steps.length ?? 0,
    errors,
    warnings: diagnostics.length - errors,
  };
}

