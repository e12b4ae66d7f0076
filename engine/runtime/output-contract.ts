// A step's output is checked against its `output` JSON Schema before it counts as success
// (principle 2): a failing output is `invalid_output`, never a success.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false });
const compiled = new Map<string, ValidateFunction>();

/** Returns undefined when `value` satisfies `schema`, else a readable list of the violations. */
export function checkAgainstSchema(schema: Record<string, unknown>, value: unknown): string | undefined {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath === '' ? 'the value' : e.instancePath} ${e.message ?? 'is invalid'}`)
    .join('; ');
}
