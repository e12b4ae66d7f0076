// The store-connection check (test/lint/store-connection.ts) on the repository, and on planted
// code, so it is seen to find every way of reaching a store's `db` and to pass what is not one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidateFiles, connectionReaches, formatReaches } from './store-connection.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the repository', () => {
  it('reads the files that mention db, the engine and the tests among them', () => {
    const files = candidateFiles(ROOT);
    expect(files).toContain('engine/service/read-only-store.ts');
    expect(files).toContain('test/engine/harness.ts');
    expect(files.some((f) => f.startsWith('engine/store/'))).toBe(false);
  });

  it('has no code outside engine/store/ that reaches a store\'s connection', () => {
    const reaches = connectionReaches(ROOT, candidateFiles(ROOT));
    expect(reaches, formatReaches(reaches)).toEqual([]);
  });
});

describe('on planted code', () => {
  // A store-like class planted in engine/store/, with a public db, stands for a Store that would
  // expose its connection again; the real Store keeps it in its unit of work (`work`).
  const storeFile = [
    'engine/store/planted-store.ts',
    "import type { Db } from './db.ts';\nexport class PlantedStore {\n  constructor(readonly db: Db) {}\n}\n",
  ] as const;

  it('finds .db, [\'db\'], a destructured db, on a store, a subclass of it, a Lease, a store inside another value and the Store\'s unit of work', () => {
    const planted = new Map([
      storeFile,
      [
        'engine/service/planted-reach.ts',
        `import type { Store } from '../store/store.ts';
import type { Lease } from '../store/lease.ts';
import { PlantedStore } from '../store/planted-store.ts';
class Sub extends PlantedStore {}
export const a = (s: PlantedStore) => s.db;
export const b = (s: PlantedStore) => s['db'];
export const c = (s: Sub) => s.db;
export const d = (l: Lease) => l['db'];
export const e = (o: { store: PlantedStore; close(): void }) => o.store.db;
export function f(s: PlantedStore | undefined) { const { db } = s ?? ({} as PlantedStore); return db; }
export const g = (s: Store) => s['work'].db;
`,
      ],
    ]);
    const reaches = connectionReaches(ROOT, [], planted);
    expect(reaches.map((r) => [r.file, r.line, r.text])).toEqual([
      ['engine/service/planted-reach.ts', 5, 's.db'],
      ['engine/service/planted-reach.ts', 6, "s['db']"],
      ['engine/service/planted-reach.ts', 7, 's.db'],
      ['engine/service/planted-reach.ts', 8, "l['db']"],
      ['engine/service/planted-reach.ts', 9, 'o.store.db'],
      ['engine/service/planted-reach.ts', 10, '{ db } = s ?? ({} as PlantedStore)'],
      ['engine/service/planted-reach.ts', 11, "s['work'].db"],
    ]);
    expect(formatReaches(reaches)).toContain('engine/service/planted-reach.ts:5: s.db');
  });

  it('passes a db that is not a store\'s: a path, a test\'s own connection, and code inside engine/store/', () => {
    const planted = new Map([
      storeFile,
      [
        'engine/service/planted-fine.ts',
        `import type { Db } from '../store/db.ts';
export const a = (values: { db?: string }) => values.db;
export const b = (h: { db: Db }) => h.db.prepare('SELECT 1');
`,
      ],
      ['engine/store/planted-inside.ts', "import type { Store } from './store.ts';\nimport type { PlantedStore } from './planted-store.ts';\nexport const a = (s: Store) => s['work'].db;\nexport const b = (s: PlantedStore) => s.db;\n"],
    ]);
    expect(connectionReaches(ROOT, [], planted)).toEqual([]);
  });
});
