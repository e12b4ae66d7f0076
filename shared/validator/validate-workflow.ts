// Entry point of the pure validator. Checks live one per file in ./checks; this file runs them.
import type { Workflow } from '../definition/workflow-schema.ts';
import { parseDefinitionText } from './parse-definition.ts';
import type { Diagnostic } from './diagnostic.ts';
import { ExpressionCache } from './expressions/expression-cache.ts';
import { JsonSchemaChecker } from './schema/json-schema-check.ts';
import { ValidationContext } from './validation-context.ts';
import { checkIdsAndReferences } from './checks/ids-and-references.ts';
import { checkReachability } from './checks/reachability.ts';
import { checkExpressions } from './checks/expressions.ts';
import { checkRouting } from './checks/routing.ts';
import { checkExhaustedEdges } from './checks/exhausted-edges.ts';
import { checkBudgetEdges } from './checks/budget-edges.ts';
import { checkJoins } from './checks/joins.ts';
import { checkIgnoredBranches } from './checks/ignored-branches.ts';
import { checkEffects } from './checks/effects.ts';
import { checkWaiting } from './checks/waiting.ts';
import { checkJsonSchemas } from './checks/json-schemas.ts';
import { checkAgentCandidates } from './checks/agent-candidates.ts';
import { checkRevalidation } from './checks/revalidation.ts';
import { checkHandoffRecords } from './checks/handoff-records.ts';
import { checkSensitiveFields } from './checks/sensitive-fields.ts';

const CHECKS = [
  checkIdsAndReferences,
  checkReachability,
  checkExpressions,
  checkRouting,
  checkExhaustedEdges,
  checkBudgetEdges,
  checkJoins,
  checkIgnoredBranches,
  checkEffects,
  checkWaiting,
  checkRevalidation,
  checkJsonSchemas,
  checkAgentCandidates,
  checkHandoffRecords,
  checkSensitiveFields,
];

/** Parse caches; the editor passes one set in and reuses it while a graph is drawn. */
export interface ValidatorCaches {
  expressions: ExpressionCache;
  schemas: JsonSchemaChecker;
}

export const createValidatorCaches = (): ValidatorCaches => ({
  expressions: new ExpressionCache(),
  schemas: new JsonSchemaChecker(),
});

let shared: ValidatorCaches | undefined;
/** One set of caches per process unless the caller brings its own (ajv is costly to create). */
const sharedCaches = (): ValidatorCaches => (shared ??= createValidatorCaches());

/**
 * Validates a parsed workflow and returns every finding, errors first, then in file order.
 *
 * @example
 * const ds = validateWorkflow(workflow);
 * const ok = !ds.some((d) => d.severity === 'error');
 */
export function validateWorkflow(workflow: Workflow, caches: ValidatorCaches = sharedCaches()): Diagnostic[] {
  const ctx = new ValidationContext(workflow, caches.expressions, caches.schemas);
  for (const check of CHECKS) check(ctx);
  // Errors first, each group in the order the checks found them.
  return [...ctx.diagnostics.filter((d) => d.severity === 'error'), ...ctx.diagnostics.filter((d) => d.severity !== 'error')];
}

/** Parses a definition file's text and validates it: what `weft validate` reports for one file. */
export function validateDefinitionText(
  text: string,
  caches?: ValidatorCaches,
): { workflow?: Workflow; diagnostics: Diagnostic[] } {
  const parsed = parseDefinitionText(text);
  if (!parsed.ok) return { diagnostics: parsed.diagnostics };
  return { workflow: parsed.workflow, diagnostics: validateWorkflow(parsed.workflow, caches) };
}
