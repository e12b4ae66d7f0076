// The JSON Schema meta-schema validator compiled ahead of time (build/meta-schema-validator.mjs):
// the committed file is what the generator writes from the ajv installed (so an upgrade of ajv
// that changes it fails here until it is written again), and it judges schemas exactly as ajv's
// own validateSchema does with the JsonSchemaChecker's options: the same verdict, the same errors.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { metaSchemaValidatorSource, TARGET } from '../../build/meta-schema-validator.mjs';
import { validate } from '../../shared/validator/schema/meta-schema-validate.generated.js';

const SCHEMAS: readonly unknown[] = [
  true,
  false,
  {},
  { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'], additionalProperties: false },
  { type: 'objekt' },
  { type: ['string', 'string'] },
  { properties: { a: { type: 5 } } },
  { $defs: { x: { minimum: 'a' } } },
  { items: [{}] },
  { prefixItems: [{ type: 'nope' }] },
  { required: 'a' },
  { enum: [] },
  { anyOf: [] },
  { minLength: -1 },
  { propertes: {} },
  { $ref: '#/$defs/x', $defs: { x: { type: 'integer' } }, unevaluatedProperties: { type: 1 } },
  { dependentSchemas: { a: { type: 'q' } } },
  { if: { type: 'string' }, then: { maxLength: 'x' }, else: false },
  { $dynamicAnchor: 'node', type: 'object', properties: { next: { $dynamicRef: '#node' } } },
  { oneOf: [{ const: 1 }, { const: 1 }], uniqueItems: 'yes' },
];

describe('the precompiled JSON Schema 2020-12 meta-schema validator', () => {
  it('is the file build/meta-schema-validator.mjs writes from the ajv installed', () => {
    expect(readFileSync(TARGET, 'utf8') === metaSchemaValidatorSource(), 'run `node build/meta-schema-validator.mjs` and commit the file').toBe(true);
  });

  it.each(SCHEMAS.map((s) => [JSON.stringify(s), s]))('judges %s as ajv.validateSchema does, with the same errors', (_, schema) => {
    const ajv = new Ajv2020({ strict: false, strictSchema: true, allErrors: true, validateFormats: false, logger: false });
    const expected = ajv.validateSchema(schema as object);
    expect({ valid: validate(schema), errors: validate.errors ?? null }).toEqual({ valid: expected, errors: ajv.errors ?? null });
  });
});
