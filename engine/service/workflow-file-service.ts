// Writing the workspace's workflow files for the app: save, create, rename, import, export and
// delete. Every write goes through one path: the version rule, the canonical text, an atomic
// write, the store's record of the saved version, the file read back.
// - A version that has run is immutable: saving other content (layout and $schema aside) under
//   its number writes the next version, max(known) + 1, and says so (`bumped`).
// - A version saved but never run is kept in the store and replaced by the next save of its number.
// - Validation errors do not stop a save (the editor saves work in progress); a value that is not
//   shaped like a workflow is refused with its path.
// - The file is the canonical text of the definition as the shared schema parses it
//   (formatDefinition), so the bytes depend on the workflow only, not on how it was sent.
// Files are addressed by workflow id; a new file is `ID.weft.json` at the workspace root.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import {
  CreateWorkflowRequest,
  ImportWorkflowRequest,
  RenameWorkflowRequest,
  SaveWorkflowRequest,
  type DeleteWorkflowResult,
  type TemplateSummary,
  type WorkflowFileResult,
} from '../../shared/api/workflow-files.ts';
import { formatDefinition } from '../../shared/definition/format-definition.ts';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';
import { definitionHash } from '../store/definition-content.ts';
import type { Definitions } from '../store/definitions.ts';
import type { Clock } from '../time/clock.ts';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';
import { fileHash } from './file-hash.ts';
import { parseCommand, type CommandInput } from './parse-command.ts';
import { ServiceError } from './service-error.ts';
import type { WorkflowTemplates } from './workflow-templates.ts';
import { summaryOf } from './workflow-summary.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

export class WorkflowFileService {
  constructor(
    private readonly files: WorkspaceFiles,
    private readonly definitions: Definitions,
    private readonly clock: Clock,
    private readonly templates: WorkflowTemplates,
  ) {}

  templateList(): TemplateSummary[] {
    return this.templates.list();
  }

  /** Saves the editor's definition into the file of workflow `id`. */
  async save(id: string, request: CommandInput<typeof SaveWorkflowRequest>): Promise<WorkflowFileResult> {
    const r = parseCommand(SaveWorkflowRequest, request, 'the request');
    const workflow = shaped(parseDefinitionText(JSON.stringify(r.definition)), 'the definition', '$.definition');
    if (workflow.id !== id) {
      throw new ServiceError('bad-input', `the definition's id is "${workflow.id}" but it is saved as "${id}"; to change the id, rename the workflow (POST /api/workflows/${id}/rename)`, '$.definition.id');
    }
    const file = await this.files.byId(id);
    const full = this.files.resolveInside(file.file);
    const current = readFileSync(full);
    if (r.expectedHash !== undefined && fileHash(current) !== r.expectedHash) {
      throw new ServiceError(
        'refused',
        `${file.file} changed on disk since the editor loaded it (its sha256 is now ${fileHash(current).slice(0, 12)}…, the editor had ${r.expectedHash.slice(0, 12)}…); nothing was written: reload it, or save without expectedHash to overwrite it`,
        'expectedHash',
      );
    }
    return this.write(file.file, full, workflow, current, true);
  }

  /** A new `ID.weft.json`: a start and an end step, or a copy of a template with the new id at version 1. */
  async create(request: CommandInput<typeof CreateWorkflowRequest>): Promise<WorkflowFileResult> {
    const r = parseCommand(CreateWorkflowRequest, request, 'the request');
    await this.refuseTaken(r.id, 'id');
    const file = `${r.id}.weft.json`;
    const full = this.newFile(file, 'id');
    const name = r.name === undefined ? {} : { name: r.name };
    let workflow: Workflow;
    if (r.from === undefined || r.from === 'empty') {
      workflow = emptyWorkflow(r.id, r.name ?? r.id);
    } else {
      // The template's $schema is a path relative to Weft's examples/, which the workspace has not.
      const { $schema: _schema, ...template } = this.templates.get(r.from);
      workflow = { ...template, id: r.id, version: 1, ...name };
    }
    return this.write(file, full, workflow, undefined, false);
  }

  /** Gives workflow `id` a new id and renames its file to `TO.weft.json` beside it. */
  async rename(id: string, request: CommandInput<typeof RenameWorkflowRequest>): Promise<WorkflowFileResult> {
    const r = parseCommand(RenameWorkflowRequest, request, 'the request');
    if (r.to === id) throw new ServiceError('bad-input', `the workflow is already called "${id}"; give another id`, '$.to');
    const file = await this.files.byId(id);
    await this.refuseTaken(r.to, 'to');
    const full = this.files.resolveInside(file.file);
    const target = relative(this.files.root, join(dirname(full), `${r.to}.weft.json`)).split(sep).join('/');
    const targetFull = this.newFile(target, 'to');
    const text = readFileSync(full, 'utf8');
    const workflow = shaped(parseDefinitionText(text), file.file, '$');
    const result = await this.write(target, targetFull, { ...workflow, id: r.to }, undefined, false);
    rmSync(full);
    this.files.forget(file.file);
    return result;
  }

  /** Writes an imported file's workflow in canonical form: a new file, or with `replace` over the workflow with its id. */
  async import(request: CommandInput<typeof ImportWorkflowRequest>): Promise<WorkflowFileResult> {
    const r = parseCommand(ImportWorkflowRequest, request, 'the request');
    const workflow = shaped(parseDefinitionText(r.text), 'the imported text', '$.text');
    const existing = (await this.files.list()).find((f) => f.workflow?.id === workflow.id);
    if (existing !== undefined) {
      if (r.replace !== true) {
        throw new ServiceError('refused', `a workflow with id "${workflow.id}" exists already (${existing.file}); nothing was written: import with "replace": true to overwrite it, or change the id in the file`, '$.replace');
      }
      const full = this.files.resolveInside(existing.file);
      return this.write(existing.file, full, workflow, readFileSync(full), true);
    }
    const file = `${workflow.id}.weft.json`;
    const full = join(this.files.root, file);
    if (existsSync(full) && r.replace !== true) {
      throw new ServiceError('refused', `${file} exists (it is not a readable workflow); nothing was written: import with "replace": true to overwrite it`, '$.replace');
    }
    return this.write(file, full, workflow, existsSync(full) ? readFileSync(full) : undefined, existsSync(full));
  }

  /** The file's exact bytes, for a download. */
  async exportFile(id: string): Promise<{ fileName: string; bytes: Buffer }> {
    const file = await this.files.byId(id);
    return { fileName: `${id}.weft.json`, bytes: readFileSync(this.files.resolveInside(file.file)) };
  }

  /** Deletes the file only: the store keeps its run and saved versions. */
  async remove(id: string): Promise<DeleteWorkflowResult> {
    const file = await this.files.byId(id);
    // Refuses a symlink that leads out of the workspace; one inside is removed, not its target.
    this.files.resolveInside(file.file);
    rmSync(join(this.files.root, file.file));
    this.files.forget(file.file);
    return { deleted: file.file };
  }

  private async write(file: string, full: string, workflow: Workflow, current: Buffer | undefined, replace: boolean): Promise<WorkflowFileResult> {
    const ran = this.definitions.runVersionHash(workflow.id, workflow.version);
    let out = workflow;
    let bumped: { from: number; to: number } | undefined;
    if (ran !== undefined && ran !== definitionHash(workflow)) {
      const next = Math.max(this.definitions.latestVersion(workflow.id), workflow.version) + 1;
      // Past 2^53-1 a version is no longer an exact integer, and the file would not load again.
      if (!Number.isSafeInteger(next)) {
        throw new ServiceError('refused', `version ${workflow.version} of "${workflow.id}" has run, so a change needs a new version, but ${Number.MAX_SAFE_INTEGER} is the largest a workflow file can hold; nothing was written: save the changed workflow under a new id (duplicate it) to start again at version 1`);
      }
      bumped = { from: workflow.version, to: next };
      out = { ...workflow, version: bumped.to };
    }
    const text = formatDefinition(out);
    const unchanged = current !== undefined && current.equals(Buffer.from(text, 'utf8'));
    if (!unchanged) {
      try {
        writeFileAtomic(full, text, { replace });
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'EEXIST') throw new ServiceError('refused', `${file} appeared while it was being written; nothing was written: choose another id`);
        throw new ServiceError('internal', `cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.definitions.recordSaved(out, text, this.clock.now());
    const loaded = await this.files.reload(file);
    const diagnostics: Diagnostic[] = loaded.diagnostics;
    return {
      summary: summaryOf(file, loaded.workflow ?? out, diagnostics),
      definition: out,
      diagnostics,
      version: out.version,
      ...(bumped === undefined ? {} : { bumped }),
      hash: fileHash(text),
      unchanged,
    };
  }

  private async refuseTaken(id: string, field: string): Promise<void> {
    const taken = (await this.files.list()).find((f) => f.workflow?.id === id);
    if (taken !== undefined) throw new ServiceError('refused', `a workflow with id "${id}" exists already (${taken.file}); choose another id`, `$.${field}`);
  }

  /** The full path of a file to be made, refused when something is there already. */
  private newFile(file: string, field: string): string {
    const full = join(this.files.root, file);
    if (existsSync(full)) throw new ServiceError('refused', `${file} exists already in the workspace; choose another id, or import with "replace": true`, `$.${field}`);
    return full;
  }
}

/**
 * The smallest workflow that validates clean: a run needs an entry step, and an end step alone has
 * an incoming edge to wait for, so a pass-through transform leads to it.
 */
function emptyWorkflow(id: string, name: string): Workflow {
  return {
    format: 'weft/v1',
    id,
    version: 1,
    name,
    steps: [
      { id: 'start', kind: 'transform', config: { expression: 'input' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'start_done', from: 'start', to: 'done' }],
    layout: { start: { x: 0, y: 0 }, done: { x: 220, y: 0 } },
  };
}

/**
 * The workflow, or a 400 naming the first problem: its JSON path under `at`, and where it is in
 * the text when that is known.
 */
function shaped(parsed: ReturnType<typeof parseDefinitionText>, what: string, at: string): Workflow {
  if (parsed.ok) return parsed.workflow;
  const first = parsed.diagnostics[0];
  const where = first?.line === undefined || first.code === 'not-json' ? '' : ` (line ${first.line}, column ${first.column ?? 1})`;
  const path = first === undefined || first.path === '$' ? at : `${at}${first.path.slice(1)}`;
  throw new ServiceError('bad-input', `${what} is not a workflow: ${first?.message ?? 'it does not have the shape of one'}${where}; nothing was written (docs/definition-format.md describes the format)`, path);
}
