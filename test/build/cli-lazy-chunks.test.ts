// A start must not pay for commands it does not run (issue 20, step 9): the bundle's entry chunk, and
// the chunks it imports statically, hold none of the command files, shared/ or the bundled
// packages (zod, ajv, jsonata); each command is a chunk of its own, imported when it runs
// (engine/cli/command-list.ts). Read from the built dist/cli/: which sources each chunk holds is
// in its source map, so this checks what esbuild made of the dynamic imports, not what we meant.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshBundlePath } from '../../bin/source-stamp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist/cli');

/** The chunks a chunk imports: statically (`from "./x.js"`, `import "./x.js"`) or with import("./x.js"). */
function imports(chunk: string): { static: string[]; dynamic: string[] } {
  const text = readFileSync(join(DIST, chunk), 'utf8');
  const found = (re: RegExp): string[] => [...text.matchAll(re)].map((m) => (m[1] ?? m[2] ?? '').slice(2));
  return { static: found(/\bfrom\s*"(\.\/[^"]+\.js)"|\bimport\s*"(\.\/[^"]+\.js)"/g), dynamic: found(/\bimport\(\s*"(\.\/[^"]+\.js)"\s*\)/g) };
}

/** The chunk and every chunk it reaches through static imports. */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (chunk: string): void => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    for (const next of imports(chunk).static) visit(next);
  };
  visit(entry);
  return [...seen];
}

/** The sources (relative to the project) a chunk was made of, from its linked source map. */
function sources(chunk: string): string[] {
  const map = JSON.parse(readFileSync(join(DIST, `${chunk}.map`), 'utf8')) as { sources: string[] };
  return map.sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
}

describe('the bundled CLI loads commands on demand', () => {
  it('starts without any command file, shared/ or bundled package', () => {
    expect(freshBundlePath(ROOT), 'dist/cli is built by the global setup').toBeDefined();
    const loaded = staticClosure('weft.js').flatMap(sources);
    expect(loaded).toContain('engine/cli/main.ts');
    expect(loaded).toContain('engine/cli/command-list.ts');
    const heavy = loaded.filter((s) => s.startsWith('engine/cli/commands/') || s.startsWith('shared/') || s.includes('node_modules/'));
    expect(heavy, 'sources the entry chunk loads before any command runs').toEqual([]);
  });

  it('imports each command file as a chunk of its own when the command runs', () => {
    const lazy = staticClosure('weft.js').flatMap((chunk) => imports(chunk).dynamic);
    const commandFiles = new Set(lazy.flatMap((chunk) => (existsSync(join(DIST, chunk)) ? sources(chunk) : [])).filter((s) => s.startsWith('engine/cli/commands/')));
    for (const file of ['validate-command.ts', 'run-command.ts', 'resume-command.ts', 'operator-commands.ts', 'serve-command.ts']) {
      expect(commandFiles).toContain(`engine/cli/commands/${file}`);
    }
  });
});
