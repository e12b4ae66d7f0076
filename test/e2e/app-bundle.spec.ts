// The lists show without the editors' weight (issue 21, point 10): the chunks the app's entry
// loads before any page (index.html's scripts and what they import statically) hold none of
// CodeMirror, ajv, jsonata or React Flow. Those come with the editor, the run page, or a form's
// code field, when one is shown. Read from the built dist/app/: which sources each chunk holds is
// in its source map, so this checks what the bundler made of the dynamic imports, not what we
// meant. And a page whose code is a chunk of its own (the editor) asks for its data at once, not
// after its chunk has arrived and run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { exampleWorkspace, startServe } from './weft-serve.ts';

const APP = fileURLToPath(new URL('../../dist/app/', import.meta.url));

/** The chunks a chunk imports statically (`from "./x.js"`, `import "./x.js"`), as paths under dist/app/assets. */
function staticImports(chunk: string): string[] {
  const text = readFileSync(join(APP, chunk), 'utf8');
  return [...text.matchAll(/\bfrom\s*"\.\/([^"]+\.js)"|\bimport\s*"\.\/([^"]+\.js)"/g)].map((m) => `assets/${m[1] ?? m[2] ?? ''}`);
}

/** The entry scripts and every chunk they reach through static imports. */
function entryClosure(): string[] {
  const html = readFileSync(join(APP, 'index.html'), 'utf8');
  const seen = new Set<string>();
  const visit = (chunk: string): void => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    for (const next of staticImports(chunk)) visit(next);
  };
  for (const m of html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\brel="modulepreload"[^>]*\bhref)="\.\/(assets\/[^"]+\.js)"/g)) visit(m[1] ?? '');
  return [...seen];
}

/** The sources (relative to the project) a chunk was made of, from its source map (the bundler's runtime has none). */
function sources(chunk: string): string[] {
  if (!existsSync(join(APP, `${chunk}.map`))) {
    expect(chunk, 'only the bundler runtime comes without a source map').toMatch(/^assets\/rolldown-runtime-[\w-]+\.js$/);
    return [];
  }
  const map = JSON.parse(readFileSync(join(APP, `${chunk}.map`), 'utf8')) as { sources: string[] };
  return map.sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
}

test('the entry chunks hold none of CodeMirror, ajv, jsonata or React Flow', () => {
  const chunks = entryClosure();
  expect(chunks.length, 'index.html loads the app from its assets').toBeGreaterThan(0);
  const loaded = chunks.flatMap(sources);
  expect(loaded).toContain('renderer/main.tsx');
  expect(loaded).toContain('renderer/workflows/workflows-page.tsx');
  const heavy = loaded.filter((s) => /node_modules\/(@codemirror|@lezer|ajv|jsonata|@xyflow)\//.test(s));
  expect(heavy, 'sources loaded before any page that needs them').toEqual([]);
});

test("the editor opened by its address asks for the workflow before its own chunk", async ({ page }) => {
  const ws = exampleWorkspace();
  const served = await startServe(ws);
  try {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    // The printed address puts the token in the tab; the list never loads the editor's chunk, so
    // opening the editor by its address (a new document, as a reload is) fetches it after the entry ran.
    await page.goto(served.address);
    await expect(page.getByTestId('workflow-list')).toBeVisible();
    await page.goto('about:blank');
    asked.length = 0;
    await page.goto(`${served.url}/#/workflow/trip-saga`);
    await expect(page.locator('.react-flow__node').first()).toBeVisible();
    const workflow = asked.lastIndexOf('/api/workflows/trip-saga');
    const chunk = asked.findLastIndex((p) => /^\/assets\/editor-page-[\w-]+\.js$/.test(p));
    expect(workflow, asked.join('\n')).toBeGreaterThan(-1);
    expect(chunk, asked.join('\n')).toBeGreaterThan(-1);
    expect(workflow, 'the workflow is asked for before the editor chunk').toBeLessThan(chunk);
  } finally {
    await served.stop();
    ws.remove();
  }
});
