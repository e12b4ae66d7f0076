// The repository's import graph, checked for circles: no files import each other through any
// chain, and no two of the folders directly inside renderer/ or inside shared/ do. A circle means
// neither side can be read, tested or moved without the other; between folders it means a folder
// has no place in the layering (the app's shell and its base in one folder, say).
//
// Every relative import counts: `import`, `export … from`, dynamic `import()` (a lazy import
// changes when a file loads, not whether it depends on it), `import('…')` types, `require()`, and
// `new URL('./x.ts', import.meta.url)`, the way a worker's file is named to the bundler.
// Type-only imports count too: erased at run time, they still say that one file is written in
// terms of another, and one edit turns them into value imports; a circle of types is a circle of
// meaning. Package imports are not ours and do not count, nor do imports of CSS or JSON.
//
// It also lists files over 400 lines whose header comment does not say why they are that long:
// past that size a file usually holds more than one job. A long file's header says so in words,
// "Over 400 lines: …" followed by the reason.
//
// Run it: `npx tsx test/lint/import-circles.ts [ROOT]` prints what it found and exits 1 when there
// is anything. test/lint/import-circles.test.ts runs it on the repository and on planted circles.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The folders whose direct subfolders must not import each other in a circle. */
export const FOLDER_PARENTS = ['renderer', 'shared'] as const;
/** Past this many lines a file needs a reason at its top. */
export const MAX_LINES = 400;

const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Files whose length is checked: code and hand-written style sheets (not data, not docs). */
const MEASURED = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|css)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** Folders that hold no source of ours: dependencies, build output, reports. Dot folders are skipped too. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report', 'scratch', 'tmp']);
const REASON = /\bover 400 lines\b\W*(\w+\W+){3,}/i;

/** Each file (repository-relative, `/`-separated) with the files of ours it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

export interface Circle {
  /** Every file (or folder) of the circle, sorted. */
  members: string[];
  /** One shortest way round, from the first member back to it. */
  path: string[];
}

export interface FolderCircle extends Circle {
  /** Each folder-to-folder import inside the circle: how many file imports make it, and one of them. */
  arrows: { from: string; to: string; imports: number; example: string }[];
}

export interface LongFile {
  file: string;
  lines: number;
}

export interface Report {
  files: number;
  fileCircles: Circle[];
  folderCircles: FolderCircle[];
  longFiles: LongFile[];
}

/** The files under `root` the checks read, sorted, as `/`-separated paths relative to it. */
export function sourceFiles(root: string, pattern: RegExp = MEASURED): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED.has(entry.name)) walk(path);
      } else if (entry.isFile() && pattern.test(entry.name)) {
        out.push(path);
      }
    }
  };
  walk('');
  return out.sort();
}

function scriptKind(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return /\.(m|c)?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** `import.meta.url`, which makes `new URL('./x.ts', import.meta.url)` name a file of ours. */
const isImportMetaUrl = (node: ts.Node | undefined): boolean =>
  node !== undefined && ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword && node.name.text === 'url';

/** The module specifiers a file's code names (not those in its other strings or its comments). */
export function specifiersOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(file));
  const out: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node)) out.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL' && isImportMetaUrl(node.arguments?.[1])) literal(node.arguments?.[0]);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if ((isImport || isRequire) && node.arguments.length >= 1) literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** TypeScript's convention: `./x.js` in a .ts file names `./x.ts`. */
const TS_FOR_JS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

/**
 * The file of ours a specifier names, or null for a package, a non-code file (CSS, JSON) or a
 * path that leaves the tree. Tried in order: the exact path, with each code extension, `.js`
 * spelled for `.ts`, and an index file in the folder. A query (`?worker`) is dropped.
 */
export function resolveSpecifier(fromFile: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!/^\.\.?(\/|$)/.test(specifier)) return null;
  const target = posix.normalize(posix.join(posix.dirname(fromFile), specifier.replace(/[?#].*$/, '')));
  if (target.startsWith('../')) return null;
  const candidates = [target, ...EXTENSIONS.map((e) => `${target}${e}`)];
  const ext = /\.[a-z]+$/.exec(target)?.[0];
  for (const swap of (ext === undefined ? undefined : TS_FOR_JS[ext]) ?? []) candidates.push(`${target.slice(0, -(ext ?? '').length)}${swap}`);
  candidates.push(...EXTENSIONS.map((e) => `${target}/index${e}`));
  return candidates.find((c) => files.has(c)) ?? null;
}

/** Every code file under `root` with the files of ours it imports. */
export function importGraph(root: string): ImportGraph {
  const files = sourceFiles(root, CODE);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of specifiersOf(file, readFileSync(join(root, file), 'utf8'))) {
      const target = resolveSpecifier(file, specifier, known);
      if (target !== null) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Strongly connected parts of the graph (Tarjan), each sorted; only those that form a circle. */
function circleParts(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    for (;;) {
      const member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      part.push(member);
      if (member === node) break;
    }
    const selfImport = (graph.get(node) ?? []).includes(node);
    if (part.length > 1 || selfImport) parts.push(part.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return parts.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** The shortest way from `start` back to itself inside `members` (breadth first). */
function shortestRound(graph: ImportGraph, start: string, members: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] ?? start;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** The circles of a graph: each group of nodes that reach one another, with one shortest way round. */
export function findCircles(graph: ImportGraph): Circle[] {
  return circleParts(graph).map((members) => ({ members, path: shortestRound(graph, members[0] ?? '', new Set(members)) }));
}

/** The folder directly inside one of `parents` that holds `file` (files directly in a parent belong to the parent), else null. */
export function folderOf(file: string, parents: readonly string[] = FOLDER_PARENTS): string | null {
  const parent = parents.find((p) => file.startsWith(`${p}/`));
  if (parent === undefined) return null;
  const rest = file.slice(parent.length + 1).split('/');
  return rest.length > 1 ? `${parent}/${rest[0] ?? ''}` : parent;
}

/** The circles between folders directly inside `parents`, with the file imports behind each arrow. */
export function findFolderCircles(graph: ImportGraph, parents: readonly string[] = FOLDER_PARENTS): FolderCircle[] {
  const arrows = new Map<string, { from: string; to: string; imports: number; example: string }>();
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file, parents);
    if (from === null) continue;
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(target, parents);
      if (to === null || to === from || to.split('/')[0] !== from.split('/')[0]) continue;
      folders.get(from)?.add(to);
      const key = `${from}\n${to}`;
      const arrow = arrows.get(key) ?? { from, to, imports: 0, example: `${file} imports ${target}` };
      arrow.imports++;
      arrows.set(key, arrow);
    }
  }
  const folderGraph: ImportGraph = new Map([...folders].map(([f, to]) => [f, [...to].sort()]));
  return findCircles(folderGraph).map((circle) => {
    const inside = new Set(circle.members);
    return { ...circle, arrows: [...arrows.values()].filter((a) => inside.has(a.from) && inside.has(a.to)).sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`)) };
  });
}

/** The number of lines of a text (a last line without its newline counts). */
export const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** The comments at the top of a file, before its first line of code. */
export function headerOf(text: string): string {
  const header: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (inBlock) {
      header.push(t);
      if (t.includes('*/')) inBlock = false;
    } else if (t.startsWith('//') || t.startsWith('#!') || t === '') {
      header.push(t);
    } else if (t.startsWith('/*')) {
      header.push(t);
      inBlock = !t.includes('*/');
    } else {
      break;
    }
  }
  return header.join('\n');
}

/** Whether a file's header says why it is over 400 lines ("Over 400 lines: …" and a few words). */
export const hasLengthReason = (text: string): boolean => REASON.test(headerOf(text));

/** The files over MAX_LINES lines whose header does not say why. */
export function longFilesWithoutReason(root: string): LongFile[] {
  const out: LongFile[] = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const lines = lineCount(text);
    if (lines > MAX_LINES && !hasLengthReason(text)) out.push({ file, lines });
  }
  return out;
}

/** Everything the checks find under `root` (whose import graph may be given, when it was read already). */
export function checkTree(root: string, graph: ImportGraph = importGraph(root)): Report {
  return { files: graph.size, fileCircles: findCircles(graph), folderCircles: findFolderCircles(graph), longFiles: longFilesWithoutReason(root) };
}

/** The report as people read it: counts first, then each finding. */
export function formatReport(report: Report): string {
  const lines = [`${report.files} code files read`];
  lines.push(`import circles between files: ${report.fileCircles.length}`);
  report.fileCircles.forEach((c, i) => {
    lines.push(`  ${i + 1}. ${c.path.join(' -> ')}`);
    if (c.members.length > c.path.length - 1) lines.push(`     (${c.members.length} files in this circle: ${c.members.join(', ')})`);
  });
  lines.push(`import circles between the folders directly inside ${FOLDER_PARENTS.map((p) => `${p}/`).join(' and ')}: ${report.folderCircles.length}`);
  report.folderCircles.forEach((c, i) => {
    lines.push(`  ${i + 1}. ${c.members.join(', ')} (one way round: ${c.path.join(' -> ')})`);
    for (const a of c.arrows) lines.push(`     ${a.from} -> ${a.to}: ${a.imports} import${a.imports === 1 ? '' : 's'}, e.g. ${a.example}`);
  });
  lines.push(`files over ${MAX_LINES} lines without a reason at the top ("Over ${MAX_LINES} lines: why"): ${report.longFiles.length}`);
  for (const f of report.longFiles) lines.push(`  ${f.file} (${f.lines} lines)`);
  return lines.join('\n');
}

/** True when the report found nothing to fix. */
export const isClean = (report: Report): boolean => report.fileCircles.length === 0 && report.folderCircles.length === 0 && report.longFiles.length === 0;

const invokedPath = process.argv[1];
if (invokedPath !== undefined && import.meta.url === pathToFileURL(resolve(invokedPath)).href) {
  const report = checkTree(resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..')));
  console.log(formatReport(report));
  process.exitCode = isClean(report) ? 0 : 1;
}
