// Checks that user-supplied JSON Schemas are themselves valid (draft 2020-12) and free of unknown
// keywords (a misspelt "propertes" silently validates nothing). Results are cached per text.
//
// A schema of the default draft is checked against the meta-schema by a validator compiled ahead
// of time (meta-schema-validate.generated.js, by build/meta-schema-validator.mjs): ajv would
// compile the meta-schema at the first check, in code made at run time that no code cache keeps,
// which cost every `weft run` and `weft validate` some 80 ms of CPU. Its errors are ajv's own. A
// schema naming another `$schema` is left to ajv, as before.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { validate as validateMetaSchema } from './meta-schema-validate.generated.js';
import { SENSITIVE_MARK } from '../../artifacts/sensitive-fields.ts';

const META_SCHEMA_ID = 'https://json-schema.org/draft/2020-12/schema';

export interface SchemaProblem {
  /** JSON pointer inside the schema, '' for its root. */
  pointer: string;
  message: string;
}

export class JsonSchemaChecker {
  private readonly ajv = new Ajv2020({
    strict: false,
    strictSchema: true,
    allErrors: true,
    validateFormats: false,
    logger: false,
    // compile() is only reached for a schema checkOnce found valid against its meta-schema.
    validateSchema: false,
  });
  private readonly cache = new Map<string, SchemaProblem[]>();

  constructor() {
    // Weft's own keyword: a sensitive place of an output schema (checks/sensitive-fields.ts checks its value and place).
    this.ajv.addKeyword({ keyword: SENSITIVE_MARK });
  }

  check(schema: unknown): SchemaProblem[] {
    const key = JSON.stringify(schema);
    let hit = this.cache.get(key);
    if (hit === undefined) {
      hit = this.checkOnce(schema);
      this.cache.set(key, hit);
    }
    return hit;
  }

  /** ajv.validateSchema's verdict and errors, from the precompiled validator where it applies. */
  private metaCheck(schema: unknown): { valid: boolean; errors: readonly ErrorObject[] } {
    const declared = typeof schema === 'object' && schema !== null && '$schema' in schema ? schema.$schema : undefined;
    if (typeof schema === 'object' && schema !== null && (declared === undefined || declared === META_SCHEMA_ID)) {
      const valid = validateMetaSchema(schema);
      return { valid, errors: valid ? [] : (validateMetaSchema.errors ?? []) };
    }
    // A Promise (an async meta-schema, which weft never adds) counted as valid before too.
    const valid = this.ajv.validateSchema(schema as object) !== false;
    return { valid, errors: this.ajv.errors ?? [] };
  }

  private checkOnce(schema: unknown): SchemaProblem[] {
    const { valid, errors } = this.metaCheck(schema);
    if (!valid) {
      // One problem per place: ajv reports each failed branch of its meta-schema separately.
      const byPointer = new Map<string, SchemaProblem>();
      for (const e of errors) {
        if (byPointer.has(e.instancePath)) continue;
        const allowed = (e.params as { allowedValues?: unknown }).allowedValues;
        const suffix = Array.isArray(allowed) ? ` (${allowed.map((a) => JSON.stringify(a)).join(', ')})` : '';
        byPointer.set(e.instancePath, { pointer: e.instancePath, message: `${e.message ?? 'invalid'}${suffix}` });
      }
      return [...byPointer.values()];
    }
    try {
      this.ajv.compile(schema as object);
      return [];
    } catch (e) {
      // A page whose security policy forbids eval refuses ajv's compiled code: that says nothing
      // of the schema, so it is the caller's to report (renderer/code/json-lint.ts says so).
      if (e instanceof EvalError) throw e;
      const message = e instanceof Error ? e.message : String(e);
      return [{ pointer: '', message: message.replace(/^strict mode: /, '') }];
    }
  }
}
