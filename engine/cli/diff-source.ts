// One side of `weft diff`: a workflow file, or WORKFLOW@VERSION as the store's definitions table
// holds it. What cannot be compared (a missing file, text that is not a definition, a version
// that never ran) is an InputError naming the argument (A or B) and why: exit 2, one line.
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { WORKFLOW_ID_PATTERN } from '../../shared/definition/names.ts';
import { DefinitionFileError } from '../definition/definition-file-error.ts';
import type { RunReader } from '../service/run-reader.ts';
import { InputError } from './input-error.ts';

export type DiffSource =
  | { kind: 'file'; label: string; arg: string; path: string }
  | { kind: 'stored'; label: string; arg: string; workflowId: string; version: number };

/** WORKFLOW@VERSION: a workflow id slug, @, a positive version. Anything else is a file path. */
const STORED = /^(?<id>[^@/\\]+)@(?<version>[1-9][0-9]{0,8})$/;

/** Which kind of side `arg` names; `path` resolves a file argument against the current folder. */
export function diffSource(arg: string, label: string, path: (arg: string) => string): DiffSource {
  const m = STORED.exec(arg);
  const id = m?.groups?.['id'];
  const version = m?.groups?.['version'];
  if (id !== undefined && version !== undefined && WORKFLOW_ID_PATTERN.test(id)) {
    return { kind: 'stored', label, arg, workflowId: id, version: Number(version) };
  }
  return { kind: 'file', label, arg, path: path(arg) };
}

/** A file side's workflow; one that follows the format is compared even if the validator has findings. */
export async function loadFileSide(source: Extract<DiffSource, { kind: 'file' }>): Promise<Workflow> {
  const where = `${source.label} (${source.arg})`;
  const { loadDefinitionFile } = await import('../definition/load-definition-file.ts');
  let loaded: Awaited<ReturnType<typeof loadDefinitionFile>>;
  try {
    loaded = await loadDefinitionFile(source.path);
  } catch (e) {
    if (e instanceof DefinitionFileError) throw new InputError(`${where}: ${e.message}`);
    throw e;
  }
  if (loaded.workflow !== undefined) return loaded.workflow;
  throw new InputError(`${where}: not a weft definition: ${notADefinition(loaded.diagnostics, source.arg)}`);
}

function notADefinition(diagnostics: readonly Diagnostic[], arg: string): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  if (first === undefined) return 'the file could not be read as a workflow';
  const more = errors.length > 1 ? `; ${errors.length - 1} more (weft validate ${arg} lists them all)` : '';
  return `${first.message}${first.hint === undefined ? '' : ` (${first.hint})`}${more}`;
}

/**
 * A stored side's workflow: a version that ran (the store keeps no layout for it unless it was
 * also saved from the app) or one saved from the app and not run yet (with its layout). `store`
 * names the store in a message (storeName: never a password).
 */
export function loadStoredSide(source: Extract<DiffSource, { kind: 'stored' }>, reader: RunReader, store: string): Workflow {
  const stored = reader.storedDefinition(source.workflowId, source.version);
  if (stored !== undefined) return stored;
  const latest = reader.latestStoredVersion(source.workflowId);
  const known = latest === 0
    ? `the store keeps no version of "${source.workflowId}"`
    : `its latest stored version is ${latest}`;
  throw new InputError(
    `${source.label} (${source.arg}): workflow "${source.workflowId}" has no version ${source.version} in the store ${store} (${known}); a version is stored when it first runs or is saved from the app, or pass --store or --db for another store`,
  );
}
