// A value the Workflow schema accepts, typed as a Workflow but kept as given. zod's output lists
// each object's keys in schema order; a file keeps its author's order inside `config`, so the
// formatter must see the value itself. That is sound because the schema has no defaults and no
// transforms: what it accepts equals its own output up to key order.
import type { z } from 'zod';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

export type WorkflowValue = { ok: true; workflow: Workflow } | { ok: false; error: z.ZodError };

export function workflowValue(value: unknown): WorkflowValue {
  const result = Workflow.safeParse(value);
  if (!result.success) return { ok: false, error: result.error };
  return { ok: true, workflow: accepted(value, result.success) ? value : result.data };
}

function accepted(_value: unknown, ok: boolean): _value is Workflow {
  return ok;
}
