// `weft diff` through the real binary: exit 0 for the same workflow, 1 for a change (each kind of
// change, and both directions, are in diff-kinds.test.ts, through main() in-process), WORKFLOW@VERSION
// read from a store that `weft run` wrote, and exit 2 with one line naming the argument for
// everything that cannot be compared.
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE } from './run-weft.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { recordSavedVersion } from '../../engine/store/saved-versions.ts';
import { Workflow as WorkflowSchema } from '../../shared/definition/workflow-schema.ts';
import { diffFiles, hello, parseDiff } from './diff-workflows.ts';

const { dir, file, changed } = diffFiles();

const A = file(hello());

describe.concurrent('weft diff of two files', () => {
  it('exits 0 with "no differences" for the same workflow written in another key order, version and $schema', async () => {
    const w = hello();
    const reordered = { edges: w.edges, steps: w.steps.map((s) => Object.fromEntries(Object.entries(s).reverse())), name: 'Hello', version: 4, id: 'hello', format: 'weft/v1', $schema: '../docs/weft-v1.schema.json', layout: w.layout };
    const r = await runWeft(['diff', A, file(reordered)]);
    expect(r).toEqual({ code: 0, stdout: 'no differences\n', stderr: '' });
    const json = await runWeft(['diff', A, file(reordered), '--json']);
    expect(json.code).toBe(0);
    expect(parseDiff(json.stdout)).toMatchObject({ same: true, layoutOnly: false, versions: { a: 1, b: 4 } });
  });

  it('compares a file with validation findings, as long as it follows the definition format', async () => {
    // An edge to a step that does not exist: weft validate refuses it, the diff still reads it.
    const B = changed((w) => w.edges.push({ id: 'dangling', from: 'hi', to: 'ghost' }));
    expect((await runWeft(['validate', B])).code).toBe(1);
    const r = await runWeft(['diff', A, B, '--json']);
    expect(r.code).toBe(1);
    expect(parseDiff(r.stdout).edges.added).toEqual(['dangling']);
  });
});

describe('weft diff of versions in the store', () => {
  const db = join(dir, 'store.db');
  const v1 = file(hello());
  const v2 = changed((w) => Object.assign(w, { version: 2, layout: { hi: { x: 9, y: 9 } } }, { steps: [...w.steps.slice(0, 2), { id: 'done', kind: 'end', name: 'Done' }] }));

  beforeAll(async () => {
    for (const f of [v1, v2]) {
      const r = await runWeft(['run', f, '--db', db]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
  });

  it('reads WORKFLOW@VERSION from the definitions table: the change between the versions that ran', async () => {
    const r = await runWeft(['diff', 'hello@1', 'hello@2', '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const diff = parseDiff(r.stdout);
    // The store keeps no layout: what moved between the files is not reported between versions.
    expect(diff).toMatchObject({ steps: { changed: [{ id: 'done', parts: ['meta'] }] }, layout: { moved: [] }, versions: { a: 1, b: 2 }, layoutOnly: false });
    expect(await runWeft(['diff', 'hello@2', 'hello@2', '--db', db])).toEqual({ code: 0, stdout: 'no differences\n', stderr: '' });
  });

  it('compares a stored version with a file, and finds the store through WEFT_DB too', async () => {
    const edited = changed((w) => Object.assign(w, { version: 3, layout: {} }, { steps: [...w.steps.slice(0, 2), { id: 'done', kind: 'end', name: 'Finished' }] }));
    const r = await runWeft(['diff', 'hello@2', edited], dir, { env: { WEFT_DB: db } });
    expect(r).toEqual({ code: 1, stdout: '~ step done: meta\n', stderr: '' });
    expect((await runWeft(['diff', v1, 'hello@1', '--db', db])).code).toBe(0);
  });

  it('exits 2 naming the argument for a version that never ran, and says which is the latest', async () => {
    const r = await runWeft(['diff', 'hello@1', 'hello@7', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`weft diff: B (hello@7): workflow "hello" has no version 7 in the store ${db} (its latest stored version is 2); a version is stored when it first runs or is saved from the app, or pass --store or --db for another store\n`);
    const other = await runWeft(['diff', 'nope@1', v1, '--db', db]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^weft diff: A \(nope@1\): workflow "nope" has no version 1 .*the store keeps no version of "nope".*\n$/);
  });

  it('reads a version saved from the app and never run, with its layout', async () => {
    const v3 = { ...hello(), version: 3, name: 'Hello, saved', layout: { hi: { x: 0, y: 0 }, done: { x: 300, y: 0 } } };
    const store = openDatabase(db);
    recordSavedVersion(store, WorkflowSchema.parse(v3), JSON.stringify(v3), Date.now());
    store.close();
    expect(await runWeft(['diff', 'hello@3', file(v3), '--db', db])).toEqual({ code: 0, stdout: 'no differences\n', stderr: '' });
    const moved = await runWeft(['diff', 'hello@3', file({ ...v3, layout: { hi: { x: 0, y: 0 }, done: { x: 400, y: 0 } } }), '--db', db, '--json']);
    expect(moved.code).toBe(1);
    expect(parseDiff(moved.stdout)).toMatchObject({ layoutOnly: true, layout: { moved: ['done'] } });
    const r = await runWeft(['diff', 'hello@2', 'hello@3', '--db', db, '--json']);
    expect(r.code).toBe(1);
    expect(parseDiff(r.stdout)).toMatchObject({ workflow: { changed: ['name'] }, layout: { moved: [] }, versions: { a: 2, b: 3 } });
  });

  it('exits 2 when there is no store, or the file is not a weft store, and leaves it as it was', async () => {
    const empty = mkdtempSync(join(dir, 'nostore-'));
    const none = await runWeft(['diff', 'hello@1', 'hello@2'], empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`there is no store at ${join(empty, '.weft', 'weft.db')}`);
    const contacts = join(dir, 'contacts.db');
    const d = new Database(contacts);
    d.exec("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES ('Ada')");
    d.close();
    const before = readFileSync(contacts);
    const foreign = await runWeft(['diff', 'hello@1', 'hello@2', '--db', contacts]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/not a Weft store/);
    expect(foreign.stderr).not.toContain(STACK_LINE);
    expect(readFileSync(contacts).equals(before)).toBe(true);
  });
});

describe.concurrent('weft diff of what cannot be compared', () => {
  const notJson = file(undefined, '{"format": "weft/v1",\n  "id": }');
  const notWorkflow = file({ hello: 'world' });
  const empty = file(undefined, '');

  it.each([
    ['a missing file', [A, join(dir, 'missing.weft.json')], `B (${join(dir, 'missing.weft.json')}): cannot read ${join(dir, 'missing.weft.json')}: no such file or directory`],
    ['a folder', [dir, A], `A (${dir}): cannot read ${dir}: it is a directory`],
    ['invalid JSON', [notJson, A], `A (${notJson}): not a weft definition: not valid JSON at line 2, column 9`],
    ['JSON that is not a workflow', [A, notWorkflow], `B (${notWorkflow}): not a weft definition: $.format: expected "weft/v1"`],
    ['an empty file', [empty, A], `A (${empty}): not a weft definition: the file is empty`],
  ])('exits 2 with one line for %s', async (_name, args, message) => {
    const r = await runWeft(['diff', ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.slice(0, `weft diff: ${message}`.length)).toBe(`weft diff: ${message}`);
    expect(r.stderr.split('\n')).toHaveLength(2); // one line and its newline
    expect(r.stderr).not.toContain(STACK_LINE);
  });

  it.each([[[]], [[A]], [[A, A, A]]])('exits 2 with usage for %j more or fewer than two workflows', async (args) => {
    const r = await runWeft(['diff', ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^weft diff: give exactly two workflows to compare \\(got ${args.length}\\)`));
    expect(r.stderr).toContain('usage: weft diff A B [--store URL|PATH | --db PATH] [--json]');
  });

  it('exits 2 for an unknown option and names the ones it takes', async () => {
    const r = await runWeft(['diff', A, A, '--layout']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option "--layout"; it accepts --store VALUE, --db VALUE, --json');
  });

  it('is listed in weft --help', async () => {
    const r = await runWeft(['--help']);
    expect(r.stdout).toMatch(/\n {2}diff +show what changed between two versions of a workflow\n/);
  });
});
