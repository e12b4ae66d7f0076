// The JSON Schema in docs/ is generated from the zod schema; this keeps the checked-in copy from
// drifting, and checks that the shipped examples are files both schemas accept.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_PATH, POLICY_JSON_SCHEMA_PATH, renderJsonSchema, renderPolicyJsonSchema } from '../../engine/definition/write-json-schema.ts';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';

const root = new URL('../../', import.meta.url);
const schemaFile = new URL(JSON_SCHEMA_PATH, root);
const examplesDir = new URL('examples/', root);
const exampleFiles = readdirSync(examplesDir).filter((f) => f.endsWith('.weft.json')).sort();
const readExample = (file: string): string => readFileSync(new URL(file, examplesDir), 'utf8');

let compiled: ValidateFunction | undefined;
/** The generated schema compiled once; formats are a hint for editors, not checked here. */
const jsonSchemaValidator = (): ValidateFunction =>
  (compiled ??= new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(
    JSON.parse(renderJsonSchema()) as object,
  ));

describe('docs/weft-v1.schema.json', () => {
  it('matches the zod schema (run `npm run schema` when this fails)', () => {
    const stale = `${JSON_SCHEMA_PATH} is missing or out of date with shared/definition/: run \`npm run schema\` and commit the result`;
    expect(existsSync(schemaFile), stale).toBe(true);
    expect(readFileSync(schemaFile, 'utf8') === renderJsonSchema(), stale).toBe(true);
  });

  it('requires the top-level keys every workflow needs', () => {
    const schema = JSON.parse(renderJsonSchema()) as { $id?: unknown; title?: unknown; required?: unknown };
    expect(schema.$id).toEqual(expect.any(String));
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.required).toEqual(expect.arrayContaining(['format', 'id', 'version', 'name', 'steps', 'edges']));
  });

  it('rejects a file without steps, as the zod schema does', () => {
    const validate = jsonSchemaValidator();
    expect(validate({ format: 'weft/v1', id: 'x', version: 1, name: 'X', edges: [] })).toBe(false);
  });
});

describe('docs/weft-policy-v1.schema.json', () => {
  it('matches the zod policy schema (run `npm run schema` when this fails)', () => {
    const stale = `${POLICY_JSON_SCHEMA_PATH} is missing or out of date with shared/policy/policy-schema.ts: run \`npm run schema\` and commit the result`;
    const file = new URL(POLICY_JSON_SCHEMA_PATH, root);
    expect(existsSync(file), stale).toBe(true);
    expect(readFileSync(file, 'utf8') === renderPolicyJsonSchema(), stale).toBe(true);
  });

  it('accepts a policy the zod schema accepts and rejects a rule without an id', () => {
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(JSON.parse(renderPolicyJsonSchema()) as object);
    expect(validate({ format: 'weft-policy/v1', approvals: [{ id: 'payments-approved', select: { effects: ['external'], tags: ['payment'] } }] })).toBe(true);
    expect(validate({ format: 'weft-policy/v1', retries: [{ maxAttempts: 2 }] })).toBe(false);
  });
});

describe('examples/*.weft.json', () => {
  it('has the starter examples', () => {
    expect(exampleFiles.length).toBeGreaterThanOrEqual(6);
  });

  it.each(exampleFiles)('%s parses against the definition schema', (file) => {
    const result = parseDefinitionText(readExample(file));
    expect(result.ok ? [] : result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.each(exampleFiles)('%s is accepted by the generated JSON Schema', (file) => {
    const validate = jsonSchemaValidator();
    const ok = validate(JSON.parse(readExample(file)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each(exampleFiles)('%s names its workflow id after the file and lays out every step', (file) => {
    const result = parseDefinitionText(readExample(file));
    if (!result.ok) throw new Error(`${file} does not parse`);
    const { workflow } = result;
    expect(`${workflow.id}.weft.json`).toBe(file);
    expect(workflow.description ?? '').not.toBe('');
    expect(workflow.steps.map((s) => s.id).filter((id) => workflow.layout?.[id] === undefined)).toEqual([]);
  });
});
