// What the editor bench opens: the built app (rebuilt when a source is newer than dist/) and a
// temporary trusted workspace holding generated workflows, each twice: with the generator's
// grid `layout` (as a saved workflow has) and without one (the editor then lays it out with
// elkjs in a worker).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshBundlePath } from '../../bin/source-stamp.js';
import { REPO_ROOT, type Workspace } from '../e2e/weft-serve.ts';
import { generateWorkflow } from './generate-workflow.ts';

/** The sources dist/app is built from (besides renderer/ and shared/). */
const APP_INPUTS = ['vite.config.ts', 'package.json'];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Why dist/ must be rebuilt before the bench, or undefined when it is fresh. */
export function staleBuild(): string | undefined {
  if (freshBundlePath(REPO_ROOT) === undefined) return 'dist/cli is missing or older than engine/ and shared/';
  const index = join(REPO_ROOT, 'dist/app/index.html');
  if (!existsSync(index)) return 'dist/app is missing';
  const built = statSync(index).mtimeMs;
  const newest = Math.max(newestMtime(join(REPO_ROOT, 'renderer')), newestMtime(join(REPO_ROOT, 'shared')), ...APP_INPUTS.map((f) => statSync(join(REPO_ROOT, f)).mtimeMs));
  return newest > built ? 'dist/app is older than renderer/ or shared/' : undefined;
}

/** Runs `npm run build` when dist/ is stale; a failed build throws with its output. */
export function ensureBuilt(print: (line: string) => void): void {
  const why = staleBuild();
  if (why === undefined) return;
  print(`building the app first (${why}): npm run build`);
  const built = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`editor bench: \`npm run build\` failed (exit ${built.status}); fix the build and run the bench again\n${built.stdout}${built.stderr}`);
}

export interface BenchWorkflow {
  id: string;
  steps: number;
  edges: number;
  layout: 'file' | 'auto';
}

/** A trusted workspace with, for each size, `generated-N` (grid layout) and `generated-N-auto` (none). */
export function generatedWorkspace(sizes: readonly number[]): { ws: Workspace; workflows: BenchWorkflow[] } {
  const root = mkdtempSync(join(tmpdir(), 'weft-bench-editor-'));
  const dir = join(root, 'workspace');
  mkdirSync(dir);
  const workflows: BenchWorkflow[] = [];
  for (const steps of sizes) {
    const { workflow } = generateWorkflow({ steps, seed: 1 });
    const { layout: _layout, ...withoutLayout } = workflow;
    for (const [doc, layout] of [[workflow, 'file'], [{ ...withoutLayout, id: `${workflow.id}-auto` }, 'auto']] as const) {
      writeFileSync(join(dir, `${doc.id}.weft.json`), `${JSON.stringify(doc, null, 2)}\n`);
      workflows.push({ id: doc.id, steps: doc.steps.length, edges: doc.edges.length, layout });
    }
  }
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: join(root, 'weft.db'), WEFT_USER: 'bench' };
  execFileSync(process.execPath, [join(REPO_ROOT, 'bin/weft.js'), 'trust', dir], { cwd: dir, env, stdio: 'pipe' });
  return { ws: { dir, db: join(root, 'weft.db'), env, remove: () => rmSync(root, { recursive: true, force: true }) }, workflows };
}
