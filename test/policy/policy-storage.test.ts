// A run's policy snapshot stored once by hash (engine/store/policy-snapshots.ts, migration 16), on
// a real SQLite file: runs under one policy write its rules once, their run_created rows name the
// hash only, and every reader (the engine's own log read, the checked read, the cursor read, the
// live stream, a restarted store) gets the event as the engine emitted it, rules and all. A row
// of before migration 16, rules inline, reads as it is; a hash the table lacks is named damage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../engine/runtime/engine.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { hashOf } from '../../engine/store/canonical-json.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { Policy } from '../../shared/policy/policy-schema.ts';
import type { Db } from '../../engine/store/db.ts';
import { end, parseWorkflow, wf } from '../engine/harness.ts';

const rules = Policy.parse({ format: 'weft-policy/v1', retries: [{ id: 'few', maxAttempts: 2 }], forbid: [{ id: 'no-skip', action: 'skip' }] });
const policy = { hash: hashOf(rules), rules };
const flow = parseWorkflow(wf('calc', [{ id: 'a', kind: 'transform', config: { expression: '1' } }, end()], [{ id: 'a-end', from: 'a', to: 'done' }]));

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs `runs` runs of `flow` under `policy` on a fresh store file; the db stays open for the test to read. */
async function runsUnderPolicy(runs: number): Promise<{ db: Db; store: Store; ids: string[]; heard: { type: string; dataJson: string | undefined }[] }> {
  dir = mkdtempSync(join(tmpdir(), 'weft-policy-storage-'));
  const db = openDatabase(join(dir, 'weft.db'));
  const store = new Store(db);
  const heard: { type: string; dataJson: string | undefined }[] = [];
  store.subscribe(({ event, dataJson }) => heard.push({ type: event.type, dataJson }));
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: {} });
  const definitionHash = store.saveDefinition(flow, Date.now());
  const ids: string[] = [];
  for (let k = 0; k < runs; k++) ids.push(engine.startRun({ workflow: flow, definitionHash, input: {}, workspaceDir: dir, policy }));
  for (const id of ids) expect(await engine.settled(id)).toBe('succeeded');
  engine.close();
  return { db, store, ids, heard };
}

function storedCreated(db: Db, runId: string): { policy?: unknown } {
  return JSON.parse(db.prepare("SELECT data FROM events WHERE run_id = ? AND seq = 1").pluck().get(runId) as string) as { policy?: unknown };
}

describe("a run's policy, stored once by hash", () => {
  it('writes the rules once for many runs, and each run_created row names the hash only', async () => {
    const { db, ids } = await runsUnderPolicy(3);
    try {
      expect(db.prepare('SELECT hash, rules FROM policies').all()).toEqual([{ hash: policy.hash, rules: JSON.stringify(rules) }]);
      for (const id of ids) expect(storedCreated(db, id).policy).toEqual({ hash: policy.hash });
    } finally {
      db.close();
    }
  });

  it('gives every reader the event as the engine emitted it: log reads, checked reads, cursor reads, the live stream and a new store', async () => {
    const { db, store, ids, heard } = await runsUnderPolicy(2);
    try {
      const [id] = ids;
      if (id === undefined) throw new Error('no run');
      const want = { hash: policy.hash, rules };
      const dataOf = (e: { type: string; data: unknown } | undefined): unknown => (e?.type === 'run_created' ? (e.data as { policy?: unknown }).policy : 'not run_created');
      expect(dataOf(store.readRunLog(id)[0])).toEqual(want);
      expect(dataOf(store.readEvents(id)[0])).toEqual(want);
      const byCursor = store.readEventsAfter(0).filter((c) => c.event.type === 'run_created');
      expect(byCursor).toHaveLength(2);
      for (const c of byCursor) {
        expect(dataOf(c.event)).toEqual(want);
        expect((JSON.parse(c.dataJson ?? '{}') as { policy?: unknown }).policy).toEqual(want);
      }
      const live = heard.filter((h) => h.type === 'run_created');
      expect(live).toHaveLength(2);
      for (const h of live) expect((JSON.parse(h.dataJson ?? '{}') as { policy?: unknown }).policy).toEqual(want);
      // A store opened afresh on the file (another process, a restarted engine) reads the rules from the table.
      const fresh = new Store(db);
      expect(foldRun(fresh, id).policy).toEqual(want);
      expect(dataOf(fresh.readEvents(id)[0])).toEqual(want);
    } finally {
      db.close();
    }
  });

  it('reads a run_created of before migration 16, its rules inline, as it is', async () => {
    const { db, ids } = await runsUnderPolicy(1);
    try {
      const [id] = ids;
      const data = storedCreated(db, id ?? '');
      db.prepare('UPDATE events SET data = ? WHERE run_id = ? AND seq = 1').run(JSON.stringify({ ...data, policy: { hash: 'older', rules } }), id);
      expect(foldRun(new Store(db), id ?? '').policy).toEqual({ hash: 'older', rules });
    } finally {
      db.close();
    }
  });

  it('names the run, the event and the missing policy when the table lacks the hash a run names', async () => {
    const { db, ids } = await runsUnderPolicy(1);
    try {
      db.prepare('DELETE FROM policies').run();
      const [id] = ids;
      expect(() => new Store(db).readEvents(id ?? '')).toThrow(`run ${id ?? ''} event 1: the run's policy snapshot ${policy.hash} is missing from the store; the store is damaged (restore it from a backup)`);
    } finally {
      db.close();
    }
  });

  it('refuses a run whose policy names a hash that is not its rules, writing nothing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-policy-storage-'));
    const db = openDatabase(join(dir, 'weft.db'));
    try {
      const store = new Store(db);
      const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: {} });
      const definitionHash = store.saveDefinition(flow, Date.now());
      expect(() => engine.startRun({ workflow: flow, definitionHash, input: {}, workspaceDir: dir ?? '', policy: { hash: 'not-its-hash', rules } })).toThrow(
        `run_created names policy not-its-hash, but its rules hash to ${policy.hash}`,
      );
      engine.close();
      expect(db.prepare('SELECT count(*) FROM policies').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
