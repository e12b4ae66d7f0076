// The store-connection check (test/lint/store-connection.ts) on the repository, and on planted
// code, so it is seen to find every way of reaching a store's `db` and to pass what is not one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidateFiles, connectionReaches, formatReaches } from './store-connection.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the repository', () => {
  it('reads the files that mention db, the engine and the tests among them', () => {
    const files = candidateFiles(ROOT);
    expect(files).toContain('engine/server/event-stream.ts');
    expect(files).toContain('test/engine/harness.ts');
    expect(files.some((f) => f.startsWith('engine/store/'))).toBe(false);
  });

  it('has no code outside engine/store/ that reaches a store\'s connection', () => {
    const reaches = connectionReaches(ROOT, candidateFiles(ROOT));
    expect(reaches, formatReaches(reaches)).toEqual([]);
  });
});

describe('on planted code', () => {
  const head = "import type { Store } from '../store/store.ts';\nimport type { Lease } from '../store/lease.ts';\nimport type { LoggedStore } from '../scenario/logged-store.ts';\n";

  it('finds .db, [\'db\'], a destructured db, on a Store, a subclass of it, a Lease and a store inside another value', () => {
    const planted = new Map([
      [
        'engine/service/planted-reach.ts',
        `${head}export const a = (s: Store) => s.db;
export const b = (s: Store) => s['db'];
export const c = (s: LoggedStore) => s.db;
export const d = (l: Lease) => l['db'];
export const e = (o: { store: Store; close(): void }) => o.store.db;
export function f(s: Store | undefined) { const { db } = s ?? ({} as Store); return db; }
`,
      ],
    ]);
    const reaches = connectionReaches(ROOT, [], planted);
    expect(reaches.map((r) => [r.file, r.line, r.text])).toEqual([
      ['engine/service/planted-reach.ts', 4, 's.db'],
      ['engine/service/planted-reach.ts', 5, "s['db']"],
      ['engine/service/planted-reach.ts', 6, 's.db'],
      ['engine/service/planted-reach.ts', 7, "l['db']"],
      ['engine/service/planted-reach.ts', 8, 'o.store.db'],
      ['engine/service/planted-reach.ts', 9, '{ db } = s ?? ({} as Store)'],
    ]);
    expect(formatReaches(reaches)).toContain('engine/service/planted-reach.ts:4: s.db');
  });

  it('passes a db that is not a store\'s: a path, a test\'s own connection, and code inside engine/store/', () => {
    const planted = new Map([
      [
        'engine/service/planted-fine.ts',
        `import type { Db } from '../store/db.ts';
export const a = (values: { db?: string }) => values.db;
export const b = (h: { db: Db }) => h.db.prepare('SELECT 1');
`,
      ],
      ['engine/store/planted-inside.ts', `${head.replaceAll('../store/', './')}export const a = (s: Store) => s['db'];\n`],
    ]);
    expect(connectionReaches(ROOT, [], planted)).toEqual([]);
  });
});
