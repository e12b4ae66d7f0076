// Every row of every table of a store but the lease, hashed: two equal digests mean nothing was
// written in between. Tests of refused requests and commands compare one before and one after.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

export function storeDigest(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('lease') ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    const hash = createHash('sha256');
    for (const t of tables) hash.update(`${t}:${JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).raw().all())}`);
    return hash.digest('hex');
  } finally {
    db.close();
  }
}
