// The check the editor runs on its document: the same text round trip as POST /api/validate
// with {definition} (engine-service validate), so the editor and the server agree, and a
// document that is shape-invalid while edited (an empty expression) gets schema-violation
// diagnostics with their paths instead of a crash in the graph checks. Then the workspace
// policy's checks (docs/policies.md), as `weft validate` runs them: a step that breaks a rule
// shows the rule on its node.
import type { Policy } from '../../../shared/policy/policy-schema.ts';
import { policyDiagnostics } from '../../../shared/policy/check-policy.ts';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { validateDefinitionText, type ValidatorCaches } from '../../../shared/validator/validate-workflow.ts';

export function checkDefinition(definition: unknown, caches: ValidatorCaches, policy: Policy | null = null): Diagnostic[] {
  const checked = validateDefinitionText(JSON.stringify(definition) ?? '', caches);
  if (policy === null || checked.workflow === undefined) return checked.diagnostics;
  const ruled = policyDiagnostics(checked.workflow, policy);
  if (ruled.length === 0) return checked.diagnostics;
  // Errors first, as the validator orders its own.
  const all = [...checked.diagnostics, ...ruled];
  return [...all.filter((d) => d.severity === 'error'), ...all.filter((d) => d.severity !== 'error')];
}

/** What the editor shows when the validator itself throws: the checks are off, and the user is told. */
export function validatorFailure(error: unknown): Diagnostic {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    code: 'validator-failed',
    severity: 'error',
    path: '$',
    message: `the editor's validator stopped with an error: ${reason}`,
    hint: 'keep editing (the next change is checked again), or save and run `weft validate` on the file; please report this with the file',
  };
}
