// Several processes starting on a store that does not exist yet (issue 19, item 4). One of them
// could fail with "table definitions already exists" (two migrated the same new file), or be
// refused as "an SQLite database of another application", or as empty, because it read a file
// another process was still making (0 bytes, or a header and no tables yet). Now a new store is
// made whole under a temporary name and linked into place, and migrations run under the write
// lock with the version read again there: every opener gets a whole store, or (a command that
// needs one there already, before it exists) "no store".
//
// The processes are real and live through all rounds (so the round starts are not spread out by
// process start-up): each round, every one is told at the same instant to open a new path.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION, WEFT_APPLICATION_ID } from '../../engine/store/migrations.ts';
import { openDatabase } from '../../engine/store/open-database.ts';

const OPENER = fileURLToPath(new URL('../fixtures/store/store-opener.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = 30;
/** Per round: mostly commands that create (weft run, weft serve), one that writes (weft send), one that reads. */
const MODES = ['create', 'create', 'create', 'create', 'write', 'read'] as const;

interface Opener {
  child: ChildProcess;
  next(): Promise<string>;
}

function startOpener(): Promise<Opener> {
  const child = spawn(process.execPath, ['--import', 'tsx', OPENER], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const queued: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let partial = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const w = waiting.shift();
      if (w) w(line);
      else queued.push(line);
    }
  });
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w(`exited ${code}: ${stderr}`);
  });
  const next = (): Promise<string> => {
    const line = queued.shift();
    return line === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(line);
  };
  return next().then((first) => {
    if (first !== 'ready') throw new Error(`the opener did not start: ${first}`);
    return { child, next };
  });
}

let openers: Opener[] = [];
beforeAll(async () => {
  openers = await Promise.all(MODES.map(() => startOpener()));
}, 120_000);
afterAll(() => {
  for (const o of openers) o.child.kill();
});

/** What a round starts from, and what an opener in each mode may answer besides `ok`. */
const STARTS = {
  // Nothing there: a command that needs a store may come before it exists.
  'no file': { prepare: (_path: string) => {}, mayRefuse: { create: [], write: ['no-store'], read: ['no-store'] } },
  // A store of schema 4: the commands that write upgrade it (one of them), a read may come first.
  'an older store': { prepare: (path: string) => openDatabase(path, { upTo: 4 }).close(), mayRefuse: { create: [], write: [], read: ['older-schema'] } },
  // A 0-byte file (touched by hand): weft run makes its store in it; before that it is no store.
  'a 0-byte file': { prepare: (path: string) => writeFileSync(path, ''), mayRefuse: { create: [], write: ['not-a-store'], read: ['not-a-store'] } },
} as const;

it(`${MODES.length} processes opening one store at once, ${ROUNDS} times: every one gets a whole store, or is refused for a reason that holds`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-concurrent-create-'));
  const failures: string[] = [];
  const starts = Object.entries(STARTS);
  for (let round = 0; round < ROUNDS; round++) {
    const [start, { prepare, mayRefuse }] = starts[round % starts.length] as (typeof starts)[number];
    const folder = join(dir, `round-${round}`);
    mkdirSync(folder);
    const path = join(folder, 'weft.db');
    prepare(path);
    const answers = openers.map((o) => o.next());
    openers.forEach((o, k) => o.child.stdin?.write(`${path} ${MODES[k]}\n`));
    const lines = await Promise.all(answers);
    lines.forEach((line, k) => {
      const mode = MODES[k] as keyof typeof mayRefuse;
      const refusals: readonly string[] = mayRefuse[mode];
      const fine = line === 'ok' || refusals.some((code) => line.startsWith(`error ${code} `));
      if (!fine) failures.push(`round ${round} (${start}), ${mode}: ${line}`);
    });
    const db = new Database(path, { readonly: true });
    const made = [db.pragma('user_version', { simple: true }), db.pragma('application_id', { simple: true })];
    db.close();
    if (made[0] !== SCHEMA_VERSION || made[1] !== WEFT_APPLICATION_ID) failures.push(`round ${round} (${start}): the store has version ${String(made[0])}, application_id ${String(made[1])}`);
  }
  expect(failures).toEqual([]);
}, 300_000);
