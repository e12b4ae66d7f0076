// The app's calls come from the route table (shared/api/routes.ts) through callRoute: no file of
// renderer/ writes an `/api/...` path in its code (comments may name routes) or calls fetch
// itself. renderer/api/http.ts is the one documented exception for fetch: it hands the browser's
// fetch to callRoute. The stream takes its path from ROUTES.stream. The scan reads string and
// template literals with the TypeScript parser, so a path split across a template is still found.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(process.cwd(), 'renderer');
/** The one file that may call fetch: it builds the app's RouteClient. */
const FETCH_HOME = 'renderer/api/http.ts';
/** `/api`, `/api/…` or `/api?…` at the start of a literal or after a non-path character (not `../api/`, a module). */
const API_PATH = /(^|[^.\w-])\/api(\/|\?|$)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Where `code` (a file named `name`) writes an /api path in a literal, or calls fetch: `line: text`. */
export function apiPathFindings(name: string, code: string, { fetchAllowed = false } = {}): string[] {
  const source = ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true, name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    const literal = ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node);
    const moduleName = literal && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent) || ts.isLiteralTypeNode(node.parent));
    if (literal && !moduleName && API_PATH.test(node.text)) at(node, `an API path written by hand: ${JSON.stringify(node.text)}`);
    if (!fetchAllowed && ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fetch') at(node, 'a fetch of its own');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the app derives its API calls from the route table', () => {
  it('finds a hand-written path, one in a template, and a fetch of its own', () => {
    expect(apiPathFindings('x.ts', "const a = get('/api/health');\n")).toHaveLength(1);
    expect(apiPathFindings('x.ts', 'const b = `/api/runs/${id}/events?after=${n}`;\n')).toHaveLength(1);
    expect(apiPathFindings('x.ts', 'const c = `${base}/api/runs`;\n')).toHaveLength(1);
    expect(apiPathFindings('x.tsx', "const d = <a href={'/api/tasks'} />;\n")).toHaveLength(1);
    expect(apiPathFindings('x.ts', 'void fetch(url, init);\n')).toEqual(['1: a fetch of its own']);
    expect(apiPathFindings('x.ts', 'const e = `${protocol}//${host}/api/stream`;\n')).toHaveLength(1);
    expect(apiPathFindings('x.ts', "// GET /api/runs/:id is read by callRoute\nimport { a } from '../api/clients.ts';\nconst f = '../api/x';\n")).toEqual([]);
  });

  it('no file of renderer/ writes an /api path or fetches outside renderer/api/http.ts', () => {
    const findings = sourceFiles(ROOT).flatMap((file) => {
      const name = relative(process.cwd(), file).split('\\').join('/');
      return apiPathFindings(name, readFileSync(file, 'utf8'), { fetchAllowed: name === FETCH_HOME }).map((f) => `${name}:${f}`);
    });
    expect(findings).toEqual([]);
  });
});
