// A step's output is checked against its `output` JSON Schema before it counts as success
// (principle 2): a failing output is `invalid_output`, never a success. One exception, narrow: a
// place the schema marks sensitive may hold the placeholder a scenario made from a run scripts
// there (shared/artifacts/sensitive-placeholder.ts), whatever that place's type.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { sensitivePathsOf } from '../../shared/artifacts/sensitive-fields.ts';
import { placeholderPointers } from '../../shared/artifacts/sensitive-placeholder.ts';
import { outputContractOf } from '../../shared/definition/handoff-record.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';

// validateSchema: false, because every schema that reaches a run was checked against the draft
// 2020-12 meta-schema by the validator (json-schema-check.ts) before the definition could run;
// checking it again here would compile ajv's meta-schema a second time in each process, about
// as much CPU as the rest of a short `weft run` takes. Made at the first check, not when the
// engine loads: `weft resume` of runs that only wait never checks an output.
let ajv: Ajv2020 | undefined;
// Schemas come from definition objects that runs of a version share, so the object itself is the
// usual key; equal schemas in other objects share a compiled validator through their text.
const byObject = new WeakMap<object, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let validate = byObject.get(schema);
  if (validate === undefined) {
    const key = JSON.stringify(schema);
    ajv ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false, validateSchema: false });
    validate = byText.get(key) ?? ajv.compile(schema);
    byText.set(key, validate);
    byObject.set(schema, validate);
  }
  return validate;
}

/** Returns undefined when `value` satisfies `schema`, else a readable list of the violations. */
export function checkAgainstSchema(schema: Record<string, unknown>, value: unknown): string | undefined {
  const validate = validatorFor(schema);
  return validate(value) ? undefined : described(validate.errors ?? []);
}

function described(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 5)
    .map((e) => `${e.instancePath === '' ? 'the value' : e.instancePath} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

/**
 * Returns undefined when `output` satisfies the step's output contract (its `output` schema, and
 * for a step that gives a handoff, the record under `handoff`: shared/definition/handoff-record.ts),
 * else a readable list of the violations. Every check of a step's output goes through here: an
 * executor's result, an operator's skip or resolve, a debug run's pin.
 */
export function outputViolations(step: Step, output: unknown): string | undefined {
  const contract = outputContractOf(step);
  if (contract === undefined) return undefined;
  const validate = validatorFor(contract);
  if (validate(output)) return undefined;
  const errors = validate.errors ?? [];
  // Only a failing output is searched for placeholders: a passing one costs nothing more.
  const placeholders = placeholderPointers(output, sensitivePathsOf(contract));
  if (placeholders.length === 0) return described(errors);
  const left = errors.filter((e) => !placeholders.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)));
  return left.length === 0 ? undefined : described(left);
}
