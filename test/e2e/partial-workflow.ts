// A workflow whose one step finishes part of its work (docs/long-running.md#partial-completion),
// for the specs that show a partial attempt: `import` is a command that imports two of four files
// and reports partial; its automatic retry gets WEFT_PARTIAL and imports the other two.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from './weft-serve.ts';

const IMPORT = `const p = process.env.WEFT_PARTIAL;
if (p === undefined) process.stdout.write(JSON.stringify({ $partial: { output: { imported: ['a.csv', 'b.csv'] }, remaining: { files: ['c.csv', 'd.csv'] } } }));
else { const e = JSON.parse(p); process.stdout.write(JSON.stringify({ imported: [...e.output.imported, ...e.remaining.files] })); }`;

/** Writes imports.weft.json into the workspace; run it with `weft run imports.weft.json`. */
export function writePartialWorkflow(ws: Workspace): void {
  writeFileSync(join(ws.dir, 'imports.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'imports', version: 1, name: 'Nightly imports',
    steps: [
      { id: 'import', name: 'Import files', kind: 'command', config: { argv: [process.execPath, '-e', IMPORT] }, retry: { maxAttempts: 3, initialIntervalMs: 200 } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'imported', from: 'import', to: 'done' }],
  }, null, 2));
}
