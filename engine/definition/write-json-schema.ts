// Generates docs/weft-v1.schema.json from the zod `Workflow` schema, and
// docs/weft-policy-v1.schema.json from the zod `Policy` schema, so editors that only speak JSON
// Schema (VS Code, JetBrains, ajv-based tools) can check .weft.json and weft.policy.json files. The
// zod schemas stay the single source of truth; test/shared/json-schema-fresh.test.ts fails when a
// checked-in file drifts from its schema. Run with `npm run schema`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { Policy } from '../../shared/policy/policy-schema.ts';

/** Where the generated schema lives, relative to the project root. */
export const JSON_SCHEMA_PATH = 'docs/weft-v1.schema.json';

/** Stable identifier of the schema; files point at the schema itself through `$schema`. */
export const JSON_SCHEMA_ID = 'urn:weft-studio:schema:weft-v1';

/**
 * Renders the JSON Schema of definition format v1 as the exact text of docs/weft-v1.schema.json.
 * `io: 'input'` describes what a user may write (optional keys stay optional).
 *
 * @example
 * const text = renderJsonSchema();
 * JSON.parse(text).required; // ['format', 'id', 'version', 'name', 'steps', 'edges']
 */
export function renderJsonSchema(): string {
  const generated = z.toJSONSchema(Workflow, { io: 'input' });
  const { $schema, ...rest } = generated;
  const document = {
    $schema,
    $id: JSON_SCHEMA_ID,
    title: 'Weft workflow definition (format weft/v1)',
    description:
      'A Weft Studio workflow file (NAME.weft.json). Generated from shared/definition/workflow-schema.ts by `npm run schema`; see docs/definition-format.md.',
    ...rest,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Where the generated policy schema lives, relative to the project root. */
export const POLICY_JSON_SCHEMA_PATH = 'docs/weft-policy-v1.schema.json';

/**
 * Renders the JSON Schema of the workspace policy file (format weft-policy/v1) as the exact text
 * of docs/weft-policy-v1.schema.json.
 *
 * @example
 * JSON.parse(renderPolicyJsonSchema()).required; // ['format']
 */
export function renderPolicyJsonSchema(): string {
  const { $schema, ...rest } = z.toJSONSchema(Policy, { io: 'input' });
  const document = {
    $schema,
    $id: 'urn:weft-studio:schema:weft-policy-v1',
    title: 'Weft workspace policy (format weft-policy/v1)',
    description:
      'A Weft Studio workspace policy (weft.policy.json at the workspace root). Generated from shared/policy/policy-schema.ts by `npm run schema`; see docs/policies.md.',
    ...rest,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Writes the schema files under `root` and returns their absolute paths. */
export function writeJsonSchema(root: string): string[] {
  const targets: [string, string][] = [
    [join(root, JSON_SCHEMA_PATH), renderJsonSchema()],
    [join(root, POLICY_JSON_SCHEMA_PATH), renderPolicyJsonSchema()],
  ];
  for (const [target, text] of targets) writeFileSync(target, text);
  return targets.map(([target]) => target);
}

const runAsScript = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (runAsScript) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  for (const file of writeJsonSchema(root)) console.log(`wrote ${file}`);
}
