// A stored snapshot (engine/store/run-snapshots.ts) is what this Weft's fold and RunDetail made of
// a prefix of a run's log. Should either change, a snapshot of the older code would be read as
// this Weft's and show a run as the new code would not; so RUN_SNAPSHOT_FORMAT must be raised with
// any change to the code they run. This pins the sources of that code (apply-event.ts, run-model.ts,
// run-detail.ts and everything they import at run time) to the format: changing one fails here
// until the format is raised and the new hash written below.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_SNAPSHOT_FORMAT } from '../../engine/store/run-snapshots.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const ENTRIES = ['shared/run/apply-event.ts', 'shared/run/run-model.ts', 'shared/run/run-detail.ts'];

/** The files `entries` import at run time (not `import type`), with them, repository-relative and sorted. */
function runtimeClosure(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)) {
      const spec = m[1];
      if (spec !== undefined) visit(relative(ROOT, resolve(ROOT, dirname(file), spec)));
    }
  };
  for (const e of entries) visit(e);
  return [...seen].sort();
}

function sourcesHash(files: readonly string[]): string {
  const h = createHash('sha256');
  for (const f of files) h.update(`${f}\n${readFileSync(join(ROOT, f), 'utf8')}\n`);
  return h.digest('hex').slice(0, 16);
}

/** The format, and the hash of the fold's and the summary's sources it was raised for. */
const PINNED = { format: 8, sources: '7cc3b1bd13007088' };

describe('the snapshot format', () => {
  it('is raised whenever the fold or the summary changes', () => {
    const files = runtimeClosure(ENTRIES);
    expect(files).toContain('shared/run/permitted-actions.ts');
    const now = { format: RUN_SNAPSHOT_FORMAT, sources: sourcesHash(files) };
    expect(now, `the code that makes a run snapshot changed (${files.join(', ')}): raise RUN_SNAPSHOT_FORMAT in engine/store/run-snapshots.ts, so stored snapshots of the older code are passed over, and pin { format: ${RUN_SNAPSHOT_FORMAT + (now.sources === PINNED.sources ? 0 : 1)}, sources: '${now.sources}' } here`).toEqual(PINNED);
  });
});
