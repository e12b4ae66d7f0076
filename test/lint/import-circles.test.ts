// The import-circle check (test/lint/import-circles.ts) on the repository, and on small trees
// with planted circles and long files, so it is seen to find what it looks for.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTree, formatReport, hasLengthReason, importGraph, lineCount, type ImportGraph, type Report } from './import-circles.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(import.meta.dirname, 'import-circles.ts');

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A temporary tree with these files (path → text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'weft-circles-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const lines = (n: number, header = ''): string => `${header}${Array.from({ length: n - lineCount(header) }, (_, i) => `export const x${i} = ${i};`).join('\n')}\n`;

describe('the repository', () => {
  let graph: ImportGraph | undefined;
  let report: Report | undefined;
  const readGraph = (): ImportGraph => (graph ??= importGraph(ROOT));
  const read = (): Report => (report ??= checkTree(ROOT, readGraph()));

  it('reads the code of every layer', () => {
    const graph = readGraph();
    for (const file of ['shared/definition/workflow-schema.ts', 'engine/cli/main.ts', 'renderer/main.tsx', 'electron/main/main.ts', 'test/lint/import-circles.ts']) {
      expect(graph.has(file), file).toBe(true);
    }
    expect(graph.get('renderer/main.tsx')?.length).toBeGreaterThan(3);
  });

  it('has no import circle between files', () => {
    expect(read().fileCircles, formatReport(read())).toEqual([]);
  });

  it('has no import circle between the folders directly inside renderer/ and inside shared/', () => {
    expect(read().folderCircles, formatReport(read())).toEqual([]);
  });

  it('has no file over 400 lines without a reason at its top', () => {
    expect(read().longFiles, formatReport(read())).toEqual([]);
  });
});

describe('on planted trees', () => {
  it('finds a circle of files through a type-only import, an index file and an import without its extension', () => {
    const root = tree({
      'a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'b/index.tsx': "import { c } from '../c.ts';\nexport type B = typeof c;\n",
      'c.ts': "export { a } from './a.js';\n",
      'd.ts': "import { c } from './c.ts';\nimport 'zod';\nimport './style.css';\nvoid c;\n",
    });
    const { fileCircles } = checkTree(root);
    expect(fileCircles).toEqual([{ members: ['a.ts', 'b/index.tsx', 'c.ts'], path: ['a.ts', 'b/index.tsx', 'c.ts', 'a.ts'] }]);
  });

  it('finds circles made by a dynamic import, by require and by a worker named with new URL, and ignores imports written in strings or comments', () => {
    const root = tree({
      'lazy/main.ts': "export const load = () => import('./command.ts');\n",
      'lazy/command.ts': "import { load } from './main.ts';\nvoid load;\n",
      'old/a.cjs': "module.exports = require('./b.cjs');\n",
      'old/b.cjs': "module.exports = require('./a.cjs');\n",
      'quiet/a.ts': "// import { b } from './b.ts';\nexport const code = \"import { b } from './b.ts'\";\n",
      'quiet/b.ts': "import { code } from './a.ts';\nvoid code;\n",
      'worker/host.ts': "export const start = () => new Worker(new URL('./job.ts', import.meta.url), { type: 'module' });\n",
      'worker/job.ts': "import { start } from './host.ts';\nvoid start;\n",
    });
    expect(checkTree(root).fileCircles.map((c) => c.members)).toEqual([
      ['lazy/command.ts', 'lazy/main.ts'],
      ['old/a.cjs', 'old/b.cjs'],
      ['worker/host.ts', 'worker/job.ts'],
    ]);
  });

  it('finds a circle between folders of shared/ whose files form none, and names the imports behind it', () => {
    const root = tree({
      'shared/api/shape.ts': "import { Name } from '../definition/names.ts';\nexport type Shape = Name;\n",
      'shared/definition/names.ts': 'export type Name = string;\n',
      'shared/definition/diff.ts': "import type { Shape } from '../api/shape.ts';\nexport type Diff = Shape;\n",
      'renderer/core/store.ts': "import type { Shape } from '../../shared/api/shape.ts';\nexport type S = Shape;\n",
      'engine/a/x.ts': "import { y } from '../b/y.ts';\nexport const x = y;\n",
      'engine/b/y.ts': "export const y = 1;\nexport type X = import('../a/z.ts').Z;\n",
      'engine/a/z.ts': 'export type Z = 1;\n',
    });
    const report = checkTree(root);
    expect(report.fileCircles).toEqual([]);
    // engine/ is not checked folder by folder; shared/ is.
    expect(report.folderCircles).toEqual([
      {
        members: ['shared/api', 'shared/definition'],
        path: ['shared/api', 'shared/definition', 'shared/api'],
        arrows: [
          { from: 'shared/api', to: 'shared/definition', imports: 1, example: 'shared/api/shape.ts imports shared/definition/names.ts' },
          { from: 'shared/definition', to: 'shared/api', imports: 1, example: 'shared/definition/diff.ts imports shared/api/shape.ts' },
        ],
      },
    ]);
  });

  it('counts the files directly inside renderer/ as a folder of their own', () => {
    const root = tree({
      'renderer/main.tsx': "import { App } from './shell/app.tsx';\nvoid App;\n",
      'renderer/shell/app.tsx': "import { boot } from '../boot.ts';\nexport const App = boot;\n",
      'renderer/boot.ts': 'export const boot = 1;\n',
    });
    expect(checkTree(root).folderCircles.map((c) => c.members)).toEqual([['renderer', 'renderer/shell']]);
  });

  it('lists a file over 400 lines without a reason at its top, and passes one with a reason or 400 lines', () => {
    const root = tree({
      'long.ts': lines(401, '// A long file.\n'),
      'explained.ts': lines(450, '// A long file.\n//\n// Over 400 lines: one table of every case, which reads best in one place.\n'),
      'too-late.ts': lines(401, "// A long file.\nimport 'zod';\n// Over 400 lines: one table of every case, which reads best in one place.\n"),
      'style.css': `/* Over 400 lines */\n${'a { color: red; }\n'.repeat(401)}`,
      'exactly.ts': lines(400),
    });
    expect(checkTree(root).longFiles).toEqual([
      { file: 'long.ts', lines: 401 },
      { file: 'style.css', lines: 402 },
      { file: 'too-late.ts', lines: 401 },
    ]);
    expect(hasLengthReason('/*\n * Over 400 lines: the grid of every panel, kept in one sheet.\n */\n.a {}\n')).toBe(true);
  });

  it('runs as a script: exit 1 with the circle in its output, exit 0 on a clean tree', () => {
    const bad = tree({ 'a.ts': "import './b.ts';\n", 'b.ts': "import './a.ts';\n" });
    const failed = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, bad], { cwd: ROOT, encoding: 'utf8' });
    expect(failed.status, failed.stderr).toBe(1);
    expect(failed.stdout).toContain('import circles between files: 1\n  1. a.ts -> b.ts -> a.ts');
    const good = tree({ 'a.ts': "import './b.ts';\n", 'b.ts': 'export {};\n' });
    const passed = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, good], { cwd: ROOT, encoding: 'utf8' });
    expect(passed.status, passed.stderr).toBe(0);
    expect(passed.stdout).toContain('import circles between files: 0');
  });
});
