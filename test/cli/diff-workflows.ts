// The workflows `weft diff` is tested on (test/cli/diff-cli.test.ts through the binary,
// diff-kinds.test.ts in-process): a three-step "hello" and files of its changed copies in a temp
// folder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowDiff } from '../../shared/definition/workflow-diff-schema.ts';

export type Raw = Record<string, unknown> & { steps: Record<string, unknown>[]; edges: Record<string, unknown>[] };

export const hello = (): Raw => ({
  format: 'weft/v1',
  id: 'hello',
  version: 1,
  name: 'Hello',
  steps: [
    { id: 'hi', kind: 'transform', config: { expression: '"hi"' } },
    { id: 'shout', kind: 'transform', config: { expression: '"HI"' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'hi', to: 'shout' },
    { id: 'e2', from: 'shout', to: 'done' },
  ],
  layout: { hi: { x: 0, y: 0 }, shout: { x: 100, y: 0 }, done: { x: 200, y: 0 } },
});

export interface DiffFiles {
  dir: string;
  /** Writes `raw` (or `text`) to a new file of the temp folder and returns its path. */
  file(raw: unknown, text?: string): string;
  /** A file of hello() after `change`. */
  changed(change: (w: Raw) => void): string;
}

export function diffFiles(): DiffFiles {
  const dir = mkdtempSync(join(tmpdir(), 'weft-diff-'));
  let n = 0;
  const file = (raw: unknown, text?: string): string => {
    const path = join(dir, `f${++n}.weft.json`);
    writeFileSync(path, text ?? JSON.stringify(raw, null, 2));
    return path;
  };
  const changed = (change: (w: Raw) => void): string => {
    const w = hello();
    change(w);
    return file(w);
  };
  return { dir, file, changed };
}

export const parseDiff = (stdout: string): WorkflowDiff => WorkflowDiff.parse(JSON.parse(stdout));
