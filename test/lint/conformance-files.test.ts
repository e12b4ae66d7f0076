// Every test that runs an engine through the harness (test/engine/harness.ts, whose store
// test-store.ts opens on SQLite or PostgreSQL) is either in the conformance suite, which runs it
// on PostgreSQL too, or listed as SQLite-only with the reason (test/conformance/conformance-files.ts):
// a new engine test cannot silently skip PostgreSQL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_FILES, SQLITE_ONLY } from '../conformance/conformance-files.ts';
import { testFiles } from '../lanes.ts';

const root = join(import.meta.dirname, '..', '..');

describe('the conformance suite', () => {
  it('lists every test that uses the engine harness, or says why it runs on SQLite alone', () => {
    const usesHarness = testFiles(root).filter((f) => /from '(\.\/|\.\.\/engine\/|\.\.\/\.\.\/engine\/)harness\.ts'/.test(readFileSync(join(root, f), 'utf8')));
    const unlisted = usesHarness.filter((f) => !CONFORMANCE_FILES.includes(f) && !Object.hasOwn(SQLITE_ONLY, f));
    expect(unlisted).toEqual([]);
    expect(usesHarness.length).toBeGreaterThan(40);
  });

  it('lists only test files that exist, each once, in one list', () => {
    const all = testFiles(root);
    for (const f of [...CONFORMANCE_FILES, ...Object.keys(SQLITE_ONLY)]) expect(all, f).toContain(f);
    expect(new Set(CONFORMANCE_FILES).size).toBe(CONFORMANCE_FILES.length);
    expect(CONFORMANCE_FILES.filter((f) => Object.hasOwn(SQLITE_ONLY, f))).toEqual([]);
  });
});
