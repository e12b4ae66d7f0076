// Checks that user-supplied JSON Schemas are themselves valid (draft 2020-12) and free of unknown
// keywords (a misspelt "propertes" silently validates nothing). Results are cached per text.
import { Ajv2020 } from 'ajv/dist/2020.js';

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
  });
  private readonly cache = new Map<string, SchemaProblem[]>();

  check(schema: unknown): SchemaProblem[] {
    const key = JSON.stringify(schema);
    let hit = this.cache.get(key);
    if (hit === undefined) {
      hit = this.checkOnce(schema);
      this.cache.set(key, hit);
    }
    return hit;
  }

  private checkOnce(schema: unknown): SchemaProblem[] {
    const valid = this.ajv.validateSchema(schema as object);
    if (!valid) {
      // One problem per place: ajv reports each failed branch of its meta-schema separately.
      const byPointer = new Map<string, SchemaProblem>();
      for (const e of this.ajv.errors ?? []) {
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
      const message = e instanceof Error ? e.message : String(e);
      return [{ pointer: '', message: message.replace(/^strict mode: /, '') }];
    }
  }
}
