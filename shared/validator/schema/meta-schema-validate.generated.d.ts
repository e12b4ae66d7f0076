// Types of meta-schema-validate.generated.js (written by build/meta-schema-validator.mjs): ajv's
// standalone validator of the JSON Schema 2020-12 meta-schema.
import type { ErrorObject } from 'ajv';

export interface MetaSchemaValidate {
  (schema: unknown): boolean;
  /** The errors of the last call that failed (null after one that passed), as ajv reports them. */
  errors?: ErrorObject[] | null;
}

export declare const validate: MetaSchemaValidate;
export default validate;
