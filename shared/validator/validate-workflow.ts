// Entry point of the pure validator. Checks live one per file in ./checks; this file runs them.
import type { Workflow } from '../definition/workflow-schema.ts';
import { parseDefinitionText } from '../definition/parse-definition.ts';
import type { Diagnostic } from './diagnostic.ts';

/**
 * Validates a parsed workflow and returns every finding, errors first.
 *
 * @example
 * const ds = validateWorkflow(workflow);
 * const ok = !ds.some((d) => d.severity === 'error');
 */
export function validateWorkflow(workflow: Workflow): Diagnostic[] {
  void workflow;
  return [];
}

/** Parses a definition file's text and validates it: what `weft validate` reports for one file. */
export function validateDefinitionText(text: string): { workflow?: Workflow; diagnostics: Diagnostic[] } {
  const parsed = parseDefinitionText(text);
  if (!parsed.ok) return { diagnostics: parsed.diagnostics };
  return { workflow: parsed.workflow, diagnostics: validateWorkflow(parsed.workflow) };
}
