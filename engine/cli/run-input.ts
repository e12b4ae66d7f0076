// `--input JSON` or `--input @file`: the run input, parsed and checked against the workflow's
// input schema before anything is stored. Every problem is an InputError (exit 2) that says where.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { lineColumn, locateJsonError } from '../../shared/definition/json-error-locator.ts';
import { InputError } from './input-error.ts';


export function readRunInput(option: string | undefined, cwd: string): unknown {
  if (option === undefined) return {};
  let text = option;
  let where = '--input';
  if (option.startsWith('@')) {
    const path = resolve(cwd, option.slice(1));
    where = path;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new InputError(`cannot read the input file ${path}: ${(e as { code?: string }).code ?? (e as Error).message}`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const at = locateJsonError(text);
    const { line, column } = lineColumn(text, at?.offset ?? 0);
    throw new InputError(`${where} is not valid JSON at line ${line}, column ${column}: ${at?.message ?? 'syntax error'}; pass a JSON value such as '{"orderId": "A17"}' or @file.json`);
  }
}

export async function checkRunInput(workflow: Workflow, input: unknown): Promise<void> {
  if (workflow.input === undefined) return;
  // The JSON Schema validator loads only when a schema is to be checked, not at every CLI start.
  const { checkAgainstSchema } = await import('../runtime/output-contract.ts');
  const problems = checkAgainstSchema(workflow.input, input);
  if (problems !== undefined) {
    throw new InputError(`the input does not match the input schema of workflow "${workflow.id}": ${problems}`);
  }
}
