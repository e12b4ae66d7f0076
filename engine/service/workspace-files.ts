// The workflow files of a workspace folder, for the app's Workflows list. Files stay inside the
// folder: a path with `..`, an absolute path or a symlink that leads out is refused. Each file is
// validated once per change (its size and mtime), so listing a workspace repeatedly is cheap.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';
import { loadDefinitionFile } from '../definition/load-definition-file.ts';
import { ServiceError } from './service-error.ts';

export interface WorkflowFile {
  /** Path relative to the workspace, with / separators. */
  file: string;
  workflow: Workflow | undefined;
  diagnostics: Diagnostic[];
}

const SKIP_DIRS = new Set(['node_modules', '.git', '.weft', 'dist']);
const MAX_DEPTH = 4;
const MAX_FILES = 2000;

export class WorkspaceFiles {
  private readonly cache = new Map<string, { stamp: string; loaded: WorkflowFile }>();
  readonly root: string;

  constructor(root: string) {
    this.root = realpathSync(resolve(root));
  }

  /** Every *.weft.json below the workspace (4 folders deep at most), sorted by path. */
  async list(): Promise<WorkflowFile[]> {
    const out: WorkflowFile[] = [];
    for (const file of this.findFiles()) out.push(await this.load(file));
    return out;
  }

  /** The file whose workflow has this id (the first by path when several do). */
  async byId(id: string): Promise<WorkflowFile> {
    for (const file of await this.list()) if (file.workflow?.id === id) return file;
    throw new ServiceError('not-found', `no workflow with id "${id}" in ${this.root}; the workspace's *.weft.json files are listed by GET /api/workflows`);
  }

  /** The file read again now, past the cache (just written: its size and mtime may not have moved). */
  async reload(file: string): Promise<WorkflowFile> {
    this.cache.delete(file);
    return this.load(file);
  }

  /** Forgets a file (deleted or renamed). */
  forget(file: string): void {
    this.cache.delete(file);
  }

  /** Resolves a path given relative to the workspace, refusing any way out of it. */
  resolveInside(path: string): string {
    if (path.length === 0 || isAbsolute(path) || path.split(/[\\/]/).includes('..')) {
      throw new ServiceError('bad-input', `"${path.slice(0, 200)}" is not a path inside the workspace: give it relative to ${this.root}, without ".."`, 'file');
    }
    const full = resolve(this.root, path);
    let real: string;
    try {
      real = realpathSync(full);
    } catch {
      throw new ServiceError('not-found', `no file ${path} in the workspace ${this.root}`, 'file');
    }
    if (real !== this.root && !real.startsWith(`${this.root}${sep}`)) {
      throw new ServiceError('bad-input', `${path} leads out of the workspace (a symlink to ${real}); only files inside ${this.root} are served`, 'file');
    }
    return real;
  }

  private findFiles(): string[] {
    const found: string[] = [];
    const walk = (dir: string, depth: number) => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (found.length >= MAX_FILES) return;
        const full = join(dir, entry.name);
        if (entry.isDirectory() && depth < MAX_DEPTH && !SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full, depth + 1);
        else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.weft.json')) found.push(relative(this.root, full).split(sep).join('/'));
      }
    };
    walk(this.root, 0);
    return found;
  }

  private async load(file: string): Promise<WorkflowFile> {
    const full = join(this.root, file);
    let stamp: string;
    try {
      const s = lstatSync(full).isSymbolicLink() ? statSync(this.resolveInside(file)) : statSync(full);
      stamp = `${s.size}:${s.mtimeMs}`;
    } catch (error) {
      return { file, workflow: undefined, diagnostics: [unreadable(file, error)] };
    }
    const cached = this.cache.get(file);
    if (cached?.stamp === stamp) return cached.loaded;
    let loaded: WorkflowFile;
    try {
      const { workflow, diagnostics } = await loadDefinitionFile(this.resolveInside(file));
      loaded = { file, workflow, diagnostics };
    } catch (error) {
      loaded = { file, workflow: undefined, diagnostics: [unreadable(file, error)] };
    }
    this.cache.set(file, { stamp, loaded });
    return loaded;
  }
}

function unreadable(file: string, error: unknown): Diagnostic {
  return {
    code: 'unreadable-file',
    severity: 'error',
    path: '',
    message: `${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    hint: 'check that the file exists, is readable and stays inside the workspace',
  };
}
