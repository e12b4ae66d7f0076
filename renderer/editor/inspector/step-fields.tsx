// A run of a step's form fields from their specs (field-specs.ts, kind-views.ts), each drawn by
// AutoField against the zod schema of the step's kind.
import type { Step } from '../../../shared/definition/workflow-schema.ts';
import { Step as StepSchema } from '../../../shared/definition/workflow-schema.ts';
import type { FieldSpec } from '../../kinds/field-spec.ts';
import { AutoField, type FieldContext } from './auto-field.tsx';

const schemaOf = (kind: Step['kind']) => StepSchema.options.find((o) => o.shape.kind.value === kind) ?? StepSchema.options[0];

export function StepFields({ specs, step, ctx }: { specs: readonly FieldSpec[]; step: Step; ctx: FieldContext }) {
  const schema = schemaOf(step.kind);
  const element: Record<string, unknown> = { ...step };
  return (
    <>
      {specs.map((spec) => (
        <AutoField key={`${step.id}:${spec.path}`} spec={spec} schema={schema} element={element} ctx={ctx} />
      ))}
    </>
  );
}
