// The check the editor runs on its document: the same text round trip as POST /api/validate
// with {definition} (engine-service validate), so the editor and the server agree, and a
// document that is shape-invalid while edited (an empty expression) gets schema-violation
// diagnostics with their paths instead of a crash in the graph checks.
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { validateDefinitionText, type ValidatorCaches } from '../../../shared/validator/validate-workflow.ts';

export function checkDefinition(definition: unknown, caches: ValidatorCaches): Diagnostic[] {
  return validateDefinitionText(JSON.stringify(definition) ?? '', caches).diagnostics;
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
