// An attempt's cost stored short (engine/store/stored-cost.ts): the events row leaves out a
// currency of USD and a basis of `declared`, and every reader gets the event as the engine emitted
// it. First the two functions alone; then on a real SQLite file: runs whose steps declare a cost
// per call store `{ amount }`, the engine's log read, the checked read, the cursor read, the live
// stream and a store opened afresh all see `{ amount, currency, basis }`, SQL that sums
// `$.meta.cost.amount` still reads it, and a row stored whole (before this form) reads as it is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../engine/runtime/engine.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { readCost, storedCost, storedShort } from '../../engine/store/stored-cost.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import type { Executor } from '../../engine/executors/executor.ts';
import type { Db } from '../../engine/store/db.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { end, parseWorkflow, wf } from '../engine/harness.ts';

const cost = (amount: number, currency: string, basis: string) => ({ output: { currency: 'USD', basis: 'declared' }, meta: { provider: 'p', cost: { amount, currency, basis } } });

describe('storedCost and readCost', () => {
  it('leave out only the default currency and basis, and put them back in the order emitted', () => {
    const cases: [data: ReturnType<typeof cost>, stored: Record<string, unknown>][] = [
      [cost(0.5, 'USD', 'declared'), { amount: 0.5 }],
      [cost(0.5, 'USD', 'tokens'), { amount: 0.5, basis: 'tokens' }],
      [cost(0.5, 'EUR', 'declared'), { amount: 0.5, currency: 'EUR' }],
    ];
    for (const [data, stored] of cases) {
      const short = storedCost('attempt_succeeded', data) as typeof data;
      expect(short.meta.cost).toEqual(stored);
      // The rest of the data is untouched, a step's own output with the same words included.
      expect(short.output).toEqual({ currency: 'USD', basis: 'declared' });
      expect(short.meta.provider).toBe('p');
      const back = readCost('attempt_succeeded', JSON.parse(JSON.stringify(short)));
      expect(JSON.stringify(back)).toBe(JSON.stringify(data));
    }
  });

  it('keep data with nothing to leave out as the same object, and read a whole row as it is', () => {
    const whole = cost(0.5, 'EUR', 'scripted');
    expect(storedShort('attempt_failed', whole)).toBe(false);
    expect(storedCost('attempt_failed', whole)).toBe(whole);
    expect(readCost('attempt_failed', whole)).toBe(whole);
    const usd = cost(1, 'USD', 'declared');
    expect(readCost('attempt_unknown', usd)).toBe(usd); // a row written before the short form
    // Other events, and attempts without a cost, are never touched.
    for (const type of ['step_settled', 'run_created', 'attempt_started']) expect(storedCost(type, usd)).toBe(usd);
    const free = { output: 1, meta: { provider: 'p' } };
    expect(storedCost('attempt_succeeded', free)).toBe(free);
    expect(readCost('attempt_succeeded', { meta: { provider: 'p' } })).toEqual({ meta: { provider: 'p' } });
  });

  it('shorten every attempt end that can record a cost', () => {
    for (const type of ['attempt_succeeded', 'attempt_failed', 'attempt_unknown', 'attempt_partial']) {
      expect((storedCost(type, cost(2, 'USD', 'declared')) as ReturnType<typeof cost>).meta.cost).toEqual({ amount: 2 });
    }
  });
});

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const done: Executor = { execute: () => Promise.resolve({ outcome: 'succeeded', output: { ok: true } }) };
const billed = parseWorkflow(
  wf('billed', [{ id: 'call', kind: 'command', config: { argv: ['true'] }, cost: { perCall: 0.25 } }, end()], [{ id: 'call-end', from: 'call', to: 'done' }]),
);

async function billedRuns(runs: number): Promise<{ db: Db; store: Store; ids: string[]; heard: { event: RunEvent; dataJson: string | undefined }[] }> {
  dir = mkdtempSync(join(tmpdir(), 'weft-stored-cost-'));
  const db = openDatabase(join(dir, 'weft.db'));
  const store = new Store(db);
  const heard: { event: RunEvent; dataJson: string | undefined }[] = [];
  store.subscribe(({ event, dataJson }) => heard.push({ event, dataJson }));
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: { command: done } });
  const definitionHash = store.saveDefinition(billed, Date.now());
  const ids: string[] = [];
  for (let k = 0; k < runs; k++) ids.push(engine.startRun({ workflow: billed, definitionHash, input: {}, workspaceDir: dir }));
  for (const id of ids) expect(await engine.settled(id)).toBe('succeeded');
  engine.close();
  return { db, store, ids, heard };
}

const WHOLE = { amount: 0.25, currency: 'USD', basis: 'declared' };
const costOf = (e: { type: string; data: unknown } | undefined): unknown => (e?.type === 'attempt_succeeded' ? (e.data as { meta?: { cost?: unknown } }).meta?.cost : 'not an attempt end');

describe('a declared cost on a real store', () => {
  it('is stored as its amount, and every reader gets it whole', async () => {
    const { db, store, ids, heard } = await billedRuns(2);
    try {
      const [id] = ids;
      if (id === undefined) throw new Error('no run');
      const rows = db.prepare("SELECT data FROM events WHERE type = 'attempt_succeeded' AND step = 'call'").pluck().all() as string[];
      expect(rows).toHaveLength(2);
      for (const r of rows) expect((JSON.parse(r) as { meta: { cost: unknown } }).meta.cost).toEqual({ amount: 0.25 });
      // SQL that sums amounts (admission's spend of running runs) reads the short form.
      expect(db.prepare("SELECT sum(json_extract(data, '$.meta.cost.amount')) FROM events WHERE type = 'attempt_succeeded'").pluck().get()).toBe(0.5);

      const attempt = (events: readonly RunEvent[]): RunEvent | undefined => events.find((e) => e.type === 'attempt_succeeded' && e.step === 'call');
      expect(costOf(attempt(store.readRunLog(id)))).toEqual(WHOLE);
      expect(costOf(attempt(store.readEvents(id)))).toEqual(WHOLE);
      const byCursor = store.readEventsAfter(0).filter((c) => c.event.type === 'attempt_succeeded' && c.event.step === 'call');
      expect(byCursor).toHaveLength(2);
      for (const c of byCursor) {
        expect(costOf(c.event)).toEqual(WHOLE);
        expect(costOf({ type: c.event.type, data: JSON.parse(c.dataJson ?? JSON.stringify(c.event.data)) })).toEqual(WHOLE);
      }
      const live = heard.filter((h) => h.event.type === 'attempt_succeeded' && h.event.step === 'call');
      expect(live).toHaveLength(2);
      for (const h of live) expect(costOf({ type: h.event.type, data: JSON.parse(h.dataJson ?? JSON.stringify(h.event.data)) })).toEqual(WHOLE);
      // A store opened afresh on the file (another process, a restarted engine) reads it whole too.
      const fresh = new Store(db);
      expect(costOf(attempt(fresh.readEvents(id)))).toEqual(WHOLE);
      expect(costOf(attempt(fresh.readRunLog(id)))).toEqual(WHOLE);
    } finally {
      db.close();
    }
  });

  it('reads a row stored whole, as a store of before the short form wrote it, as it is', async () => {
    const { db, ids } = await billedRuns(1);
    try {
      const [id] = ids;
      if (id === undefined) throw new Error('no run');
      const where = "run_id = ? AND type = 'attempt_succeeded' AND step = 'call'";
      const full = { ...(JSON.parse(db.prepare(`SELECT data FROM events WHERE ${where}`).pluck().get(id) as string) as object), meta: { cost: { amount: 0.25, currency: 'EUR', basis: 'declared' } } };
      db.prepare(`UPDATE events SET data = ? WHERE ${where}`).run(JSON.stringify(full), id);
      const fresh = new Store(db);
      const e = fresh.readEvents(id).find((x) => x.type === 'attempt_succeeded' && x.step === 'call');
      expect(costOf(e)).toEqual(full.meta.cost);
    } finally {
      db.close();
    }
  });
});
