// Nothing outside engine/store/ reaches a store's SQLite connection: the store's files hold every
// statement, so the rules of its one transaction (what is committed together, what is published
// after a commit) are kept in one place. Code elsewhere asks the store (a method, or a repository
// object the store owns, such as store.definitions) and never runs its own SQL on the store's
// connection. A test or a tool that damages a file on purpose opens the file itself.
//
// What counts as reaching it: a property named `db` read from a value whose type declares it in
// engine/store/ (the Store, a subclass of it, a Lease, a repository), as `x.db`, `x['db']` or
// `const { db } = x`, private or not. It needs the types, so the files are read by the TypeScript
// compiler: those outside engine/store/ that mention `db` at all, with what they import.
//
// Run it: `npx tsx test/lint/store-connection.ts [ROOT]` prints what it found and exits 1 when
// there is anything. test/lint/store-connection.test.ts runs it on the repository and on planted code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** One place outside engine/store/ that reaches a store's connection. */
export interface ConnectionReach {
  /** Repository-relative, `/`-separated. */
  file: string;
  line: number;
  /** The expression, as written. */
  text: string;
}

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report', 'scratch', 'tmp']);
/** Files that might read a `db` property: the rest cannot reach one, so the compiler need not read them. */
const MENTIONS_DB = /\bdb\b/;
const STORE_FOLDER = 'engine/store/';

/** Code files of the repository (repository-relative), outside engine/store/, that mention `db`. */
export function candidateFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (CODE.test(entry.name) && !entry.name.endsWith('.d.ts') && !path.startsWith(STORE_FOLDER) && MENTIONS_DB.test(readFileSync(join(root, path), 'utf8'))) out.push(path);
    }
  };
  walk('');
  return out.sort();
}

/**
 * Every place in `files` (repository-relative) outside engine/store/ that reads a store's `db`.
 * `planted` adds or replaces files by repository-relative path (the test plants violations).
 */
export function connectionReaches(root: string, files: readonly string[], planted: ReadonlyMap<string, string> = new Map()): ConnectionReach[] {
  const abs = (file: string): string => resolve(root, file);
  const plantedAbs = new Map([...planted].map(([file, text]) => [abs(file), text]));
  const options: ts.CompilerOptions = { ...compilerOptions(root), allowJs: true, checkJs: false, jsx: ts.JsxEmit.Preserve, noEmit: true };
  const host = ts.createCompilerHost(options, true);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => plantedAbs.get(resolve(name)) ?? readFile(name);
  host.fileExists = (name) => plantedAbs.has(resolve(name)) || fileExists(name);
  const roots = [...new Set([...files, ...planted.keys()])].filter((f) => !f.startsWith(STORE_FOLDER)).map(abs);
  const program = ts.createProgram({ rootNames: roots, options, host });
  const checker = program.getTypeChecker();
  const storeDir = resolve(root, STORE_FOLDER) + sep;
  const inStore = (decl: ts.Declaration): boolean => resolve(decl.getSourceFile().fileName).startsWith(storeDir);

  /** Whether `type` (or any member of a union) has a `db` property declared in engine/store/. */
  const storeDb = (type: ts.Type): boolean => {
    const types = type.isUnion() || type.isIntersection() ? type.types : [type];
    return types.some((t) => (checker.getPropertyOfType(checker.getApparentType(t), 'db')?.declarations ?? []).some(inStore));
  };

  const out: ConnectionReach[] = [];
  for (const file of roots) {
    const source = program.getSourceFile(file);
    if (source === undefined) continue;
    const report = (node: ts.Node): void => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      out.push({ file: relative(root, file).split(sep).join('/'), line: line + 1, text: node.getText(source) });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'db' && storeDb(checker.getTypeAtLocation(node.expression))) report(node);
      else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'db' && storeDb(checker.getTypeAtLocation(node.expression))) report(node);
      else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent) && bindingName(node) === 'db' && storeDb(checker.getTypeAtLocation(node.parent))) report(node.parent.parent);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

function bindingName(element: ts.BindingElement): string | undefined {
  const name = element.propertyName ?? element.name;
  return ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined;
}

/** The repository's compiler options (tsconfig.json). */
function compilerOptions(root: string): ts.CompilerOptions {
  const path = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(path, (p) => readFileSync(p, 'utf8'));
  if (read.error !== undefined) throw new Error(`cannot read ${path}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root).options;
}

export function formatReaches(reaches: readonly ConnectionReach[]): string {
  if (reaches.length === 0) return 'nothing outside engine/store/ reaches a store\'s connection';
  return [
    `${reaches.length} place(s) outside engine/store/ reach a store's SQLite connection; ask the store instead (a Store method, or a repository it owns such as store.definitions), or, in a test that damages a file, open the file with a connection of its own:`,
    ...reaches.map((r) => `  ${r.file}:${r.line}: ${r.text}`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.argv[2] ?? '.');
  const reaches = connectionReaches(root, candidateFiles(root));
  console.log(formatReaches(reaches));
  process.exitCode = reaches.length === 0 ? 0 : 1;
}
