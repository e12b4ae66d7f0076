// Saved versions (migration 8) on real SQLite files: an older store gains the table and keeps its
// run snapshots; a saved-but-never-run version is replaced by the next save of its number; a
// version that has run refuses other content; the history lists both with run counts; and
// readDefinitionVersion finds a version in either table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { latestVersion, readDefinitionVersion, recordSavedVersion, versionHistory } from '../../engine/store/saved-versions.ts';
import { Store } from '../../engine/store/store.ts';
import { StoreError } from '../../engine/store/store-error.ts';
import { SCHEMA_VERSION } from '../../engine/store/migrations.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

const temp = () => mkdtempSync(join(tmpdir(), 'weft-saved-'));
const flow = (version: number, expression = '{"a": 1}', layout?: Record<string, { x: number; y: number }>): Workflow =>
  Workflow.parse({
    format: 'weft/v1',
    id: 'flow',
    version,
    name: 'Flow',
    steps: [{ id: 'make', kind: 'transform', config: { expression } }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'e', from: 'make', to: 'done' }],
    ...(layout === undefined ? {} : { layout }),
  });

const addRun = (db: ReturnType<typeof openDatabase>, id: string, version: number) =>
  db.prepare("INSERT INTO runs (id, workflow_id, version, state, created_at, updated_at) VALUES (?, 'flow', ?, 'succeeded', 1, 2)").run(id, version);

describe('saved versions', () => {
  it('migration 8 adds saved_versions to a version-7 store, keeping its run snapshots', () => {
    const path = join(temp(), 'v7.db');
    const old = openDatabase(path, { upTo: 7 });
    new Store(old).saveDefinition(flow(1), 10);
    expect(old.prepare("SELECT name FROM sqlite_master WHERE name = 'saved_versions'").get()).toBeUndefined();
    old.close();
    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(versionHistory(db, 'flow')).toEqual([{ version: 1, definitionHash: expect.any(String), savedAtMs: 10, source: 'run', runCount: 0 }]);
    db.close();
  });

  it('replaces a saved version that has not run, and lists saved and run versions with their run counts', () => {
    const db = openDatabase(join(temp(), 'a.db'));
    const store = new Store(db);
    store.saveDefinition(flow(1), 10);
    addRun(db, 'r1', 1);
    addRun(db, 'r2', 1);
    recordSavedVersion(db, flow(2, '{"a": 2}'), 'first text', 20);
    recordSavedVersion(db, flow(2, '{"a": 3}'), 'second text', 30);
    expect(db.prepare("SELECT content, saved_at FROM saved_versions WHERE workflow_id = 'flow'").all()).toEqual([{ content: 'second text', saved_at: 30 }]);
    recordSavedVersion(db, flow(2, '{"a": 3}'), 'second text', 40);
    expect(db.prepare("SELECT content, saved_at FROM saved_versions WHERE workflow_id = 'flow'").all()).toEqual([{ content: 'second text', saved_at: 30 }]);
    expect(versionHistory(db, 'flow').map((v) => [v.version, v.source, v.runCount, v.savedAtMs])).toEqual([
      [1, 'run', 2, 10],
      [2, 'saved', 0, 30],
    ]);
    expect(latestVersion(db, 'flow')).toBe(2);
    expect(latestVersion(db, 'other')).toBe(0);
    db.close();
  });

  it('refuses other content under a number a run used, and accepts the same content with another layout', () => {
    const db = openDatabase(join(temp(), 'b.db'));
    new Store(db).saveDefinition(flow(1), 10);
    let error: unknown;
    try {
      recordSavedVersion(db, flow(1, '{"a": 9}'), 'text', 20);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('definition-conflict');
    expect((error as StoreError).message).toContain('version 1 has already run with different content; a version that has run is immutable: save it as version 2');
    expect(db.prepare('SELECT COUNT(*) AS n FROM saved_versions').get()).toEqual({ n: 0 });
    recordSavedVersion(db, flow(1, '{"a": 1}', { make: { x: 5, y: 6 } }), JSON.stringify(flow(1, '{"a": 1}', { make: { x: 5, y: 6 } })), 20);
    expect(versionHistory(db, 'flow').map((v) => [v.version, v.source])).toEqual([[1, 'run']]);
    db.close();
  });

  it('readDefinitionVersion reads a saved version, and a run version with its saved layout when the content is the same', () => {
    const db = openDatabase(join(temp(), 'c.db'));
    new Store(db).saveDefinition(flow(1), 10);
    expect(readDefinitionVersion(db, 'flow', 1)?.workflow.layout).toBeUndefined();
    const withLayout = flow(1, '{"a": 1}', { make: { x: 5, y: 6 } });
    recordSavedVersion(db, withLayout, JSON.stringify(withLayout), 20);
    expect(readDefinitionVersion(db, 'flow', 1)).toMatchObject({ source: 'run', workflow: { layout: { make: { x: 5, y: 6 } } } });
    const v2 = flow(2, '{"a": 2}');
    recordSavedVersion(db, v2, JSON.stringify(v2), 30);
    expect(readDefinitionVersion(db, 'flow', 2)).toMatchObject({ version: 2, source: 'saved', runCount: 0, savedAtMs: 30, workflow: v2 });
    expect(readDefinitionVersion(db, 'flow', 3)).toBeUndefined();
    db.close();
  });
});
