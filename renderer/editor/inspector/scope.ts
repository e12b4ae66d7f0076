// What a JSONata field of a step can read, for completion in the code editor: the run input's
// declared fields, the steps with their output fields, and the run's own fields. `guaranteed`
// is filled by the data-handoff analysis later; until then nothing is promised.
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { StepKind } from '../../../shared/definition/names.ts';

export interface ScopeStep {
  id: string;
  kind: StepKind;
  fields: string[];
  guaranteed: boolean;
}

export interface ExpressionScope {
  input: string[];
  steps: ScopeStep[];
  run: string[];
  /** The step's own output fields, where an expression reads `output` (a revalidate check). */
  output?: string[];
}

/** The fields of `run` an expression may read (docs/definition-format.md, "Expressions"). */
export const RUN_FIELDS = ['id', 'workflowId', 'version', 'inputRevision', 'startedAt'];

/** The property names a JSON Schema object declares; none when it declares no `properties` object. */
export function schemaFields(schema: Record<string, unknown> | undefined): string[] {
  const properties = schema?.['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  return Object.keys(properties);
}

/**
 * The scope of an expression of step `stepId` (or of the workflow's own `output` when null): every
 * other step, since a step cannot read its own output; the workflow output reads all of them.
 *
 * @example
 * scopeFor(doc, 'charge') // { input: ['amount'], steps: [{ id: 'quote', kind: 'http', fields: ['price'], guaranteed: false }], run: [...] }
 */
export function scopeFor(doc: Workflow, stepId: string | null): ExpressionScope {
  return {
    input: schemaFields(doc.input),
    steps: doc.steps.filter((s) => s.id !== stepId).map((s) => ({ id: s.id, kind: s.kind, fields: schemaFields(s.output), guaranteed: false })),
    run: [...RUN_FIELDS],
  };
}
