// Generates docs/weft-v1.schema.json from the zod `Workflow` schema, so editors that only speak
// JSON Schema (VS Code, JetBrains, ajv-based tools) can check .weft.json files. The zod schema
// stays the single source of truth; test/shared/json-schema-fresh.test.ts fails when the checked-in
// file drifts from it. Run with `npm run schema`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

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

/** Writes the schema file under `root` and returns its absolute path. */
export function writeJsonSchema(root: string): string {
  const target = join(root, JSON_SCHEMA_PATH);
  writeFileSync(target, renderJsonSchema());
  return target;
}

const runAsScript = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (runAsScript) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  console.log(`wrote ${writeJsonSchema(root)}`);
}
