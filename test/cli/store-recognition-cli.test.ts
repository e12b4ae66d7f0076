// Read commands never create, migrate or write a store, and every command refuses a file that
// is not a weft store, byte-identical after (issue 9, defect 8).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-recognise-'));
const flow = join(dir, 'hello.weft.json');
writeFileSync(flow, JSON.stringify({ format: 'weft/v1', id: 'hello', version: 1, name: 'Hello', steps: [{ id: 'hi', kind: 'transform', config: { expression: '"hi"' } }, { id: 'done', kind: 'end' }], edges: [{ id: 'e1', from: 'hi', to: 'done' }] }));

const READ_COMMANDS = [['runs'], ['tasks'], ['inspect', 'r1'], ['events', 'r1'], ['stats', 'hello']];
const WRITE_COMMANDS = [['run', flow], ['resume'], ['resume', 'r1'], ['pause', 'r1'], ['approve', 'r1', 'review'], ['revise', 'r1', '--input', '{}'], ['send', 'go', '--key', 'k']];

function contacts(path: string): void {
  const db = new Database(path);
  db.exec("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES ('Ada')");
  db.close();
}

describe('a file that is not a weft store', () => {
  it.each([
    ['a 0-byte file', (p: string) => writeFileSync(p, ''), /is empty, not a Weft store; nothing was changed/],
    ['another application’s SQLite database', contacts, /is an SQLite database of another application .*not a Weft store; nothing was changed/],
  ])('is refused by every read command, and left byte-identical: %s', async (_name, make, message) => {
    const path = join(mkdtempSync(join(dir, 'f-')), 'other.db');
    make(path);
    const before = readFileSync(path);
    for (const r of await Promise.all(READ_COMMANDS.map((args) => runWeft([...args, '--db', path])))) {
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(STACK_LINE);
      expect(r.code).toBe(2);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('is refused by every command that writes, byte-identical after', async () => {
    const path = join(dir, 'contacts.db');
    contacts(path);
    const before = readFileSync(path);
    // No command gets as far as the lease, so they may run side by side.
    for (const r of await Promise.all(WRITE_COMMANDS.map((args) => runWeft([...args, '--db', path])))) {
      expect(r.stderr).toMatch(/not a Weft store; nothing was changed/);
      expect(r.code).toBe(2);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('a folder with no store', () => {
  const named = [READ_COMMANDS, WRITE_COMMANDS.filter((a) => a[0] !== 'run' && !(a[0] === 'resume' && a.length === 1))];

  it.each([['read', 0], ['name a run', 1]])('gets no .weft/weft.db from commands that %s', async (_what, k) => {
    const empty = mkdtempSync(join(dir, 'nostore-'));
    for (const r of await Promise.all((named[k as number] ?? []).map((args) => runWeft(args, empty)))) {
      expect(r.stderr).toContain(`there is no store at ${join(empty, '.weft', 'weft.db')}`);
      expect(r.code).toBe(2);
    }
    expect(existsSync(join(empty, '.weft'))).toBe(false);
  });

  it('gets none from weft resume either, and one from weft run', async () => {
    const empty = mkdtempSync(join(dir, 'nostore-'));
    const resume = await runWeft(['resume'], empty);
    expect(resume).toMatchObject({ code: 0, stdout: 'no unfinished runs\n' });
    expect(existsSync(join(empty, '.weft'))).toBe(false);
    const run = await runWeft(['run', flow], empty);
    expect(run.code).toBe(0);
    expect(existsSync(join(empty, '.weft', 'weft.db'))).toBe(true);
  });
});
