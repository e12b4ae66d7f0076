// The live, paged log on real SQLite files: listeners hear of events only after their commit
// (a second connection already sees them), a throwing listener does not stop the engine, a
// rolled-back batch publishes nothing and leaves no hole in the global cursor, and the paged
// reads (per run by seq, across runs by cursor) join to the whole log.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store, type CommittedEvent } from '../../engine/store/store.ts';
import { transformChain } from './transform-chain.ts';
import { harness, type Harness } from './harness.ts';

const temp = () => mkdtempSync(join(tmpdir(), 'weft-cursor-'));
const chain = transformChain;

let h: Harness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

describe('commit listeners', () => {
  it('are called after the commit: a second connection already sees each event', async () => {
    h = harness();
    const reader = new Database(h.dbPath, { readonly: true });
    const seen = reader.prepare('SELECT cursor FROM events WHERE run_id = ? AND seq = ?');
    const heard: { cursor: number; visible: unknown }[] = [];
    h.store.subscribe(({ cursor, event }) => heard.push({ cursor, visible: seen.get(event.runId, event.seq) }));
    const { runId } = h.start(chain('heard', 3));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.flush();
    const total = h.events(runId).length;
    expect(heard).toHaveLength(total);
    expect(heard.map((x) => x.visible)).toEqual(heard.map((x) => ({ cursor: x.cursor })));
    reader.close();
  });

  it('a throwing listener neither stops the engine nor the other listeners; its error is reported', async () => {
    h = harness();
    const errors: unknown[] = [];
    const heard: CommittedEvent[] = [];
    h.store.subscribe(() => {
      throw new Error('listener bug');
    }, (e) => errors.push(e));
    h.store.subscribe((c) => heard.push(c));
    const { runId } = h.start(chain('throws', 4));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.flush();
    expect(heard.map((c) => c.event.seq)).toEqual(h.events(runId).map((e) => e.seq));
    expect(errors.length).toBe(heard.length);
    expect(String(errors[0])).toMatch(/listener bug/);
  });

  it('stops calling a listener once unsubscribed', () => {
    const store = new Store(openDatabase(join(temp(), 'unsub.db')));
    const heard: number[] = [];
    const stop = store.subscribe((c) => heard.push(c.cursor));
    store.append({ runId: 'r1', type: 'run_state_changed', at: 1, data: { state: 'running' } });
    store.flush();
    stop();
    store.append({ runId: 'r1', type: 'run_state_changed', at: 2, data: { state: 'succeeded' } });
    store.flush();
    expect(heard).toEqual([1]);
  });

  it('publishes nothing for a batch that was rolled back, and the next commit leaves no hole in the cursor', () => {
    const db = openDatabase(join(temp(), 'rollback.db'));
    const store = new Store(db);
    // A real SQLite failure in the middle of a batch: the trigger refuses one event type.
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.type = 'step_escalated' BEGIN SELECT RAISE(ABORT, 'refused by test'); END");
    const heard: CommittedEvent[] = [];
    store.subscribe((c) => heard.push(c));
    store.append({ runId: 'a', type: 'run_state_changed', at: 1, data: { state: 'running' } });
    store.flush();
    store.append({ runId: 'a', type: 'run_state_changed', at: 2, data: { state: 'waiting' } });
    store.append({ runId: 'b', type: 'step_escalated', at: 2, step: 'x', activation: 1, data: { outcome: 'failed' } });
    expect(() => store.flush()).toThrow(/refused by test/);
    expect(heard.map((c) => c.cursor)).toEqual([1]);
    store.append({ runId: 'a', type: 'run_state_changed', at: 3, data: { state: 'failed' } });
    store.flush();
    expect(heard.map((c) => [c.cursor, c.event.runId, c.event.seq])).toEqual([[1, 'a', 1], [2, 'a', 2]]);
    expect(store.readEventsAfter(0).map((c) => c.cursor)).toEqual([1, 2]);
  });
});

describe('paged reads', () => {
  it('readEvents(run, {after, limit}) pages join to the whole log; readEvents(run) is unchanged', async () => {
    h = harness();
    const { runId } = h.start(chain('paged', 6));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.flush();
    const whole = h.store.readEvents(runId);
    expect(whole.length).toBeGreaterThan(10);
    for (const limit of [1, 3, 7, whole.length, whole.length + 5]) {
      const joined = [];
      let after = 0;
      for (;;) {
        const page = h.store.readEvents(runId, { after, limit });
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(limit);
        joined.push(...page);
        after = page[page.length - 1]?.seq ?? after;
      }
      expect(joined).toEqual(whole);
    }
    expect(h.store.readEvents(runId, { after: 4 })).toEqual(whole.slice(4));
  });

  it('readEventsAfter(cursor) is every run in commit order; {runs} narrows it; {limit} pages it', async () => {
    h = harness();
    const heard: CommittedEvent[] = [];
    h.store.subscribe((c) => heard.push(c));
    const ids = [h.start(chain('x', 3)).runId, h.start(chain('y', 2)).runId, h.start(chain('z', 4)).runId];
    for (const id of ids) expect(await h.engine.settled(id)).toBe('succeeded');
    h.engine.flush();
    const all = h.store.readEventsAfter(0, { runs: 'all', limit: 10_000 });
    expect(all).toEqual(heard);
    expect(all.map((c) => c.cursor)).toEqual(all.map((_, i) => i + 1));
    const runsSeen = new Set(all.slice(0, 12).map((c) => c.event.runId));
    expect(runsSeen.size).toBeGreaterThan(1); // the three runs' events interleave
    const two = [ids[0] ?? '', ids[2] ?? ''];
    expect(h.store.readEventsAfter(5, { runs: two, limit: 10_000 })).toEqual(all.filter((c) => c.cursor > 5 && two.includes(c.event.runId)));
    const pages: CommittedEvent[] = [];
    let cursor = 0;
    for (let page = h.store.readEventsAfter(cursor, { limit: 4 }); page.length > 0; page = h.store.readEventsAfter(cursor, { limit: 4 })) {
      pages.push(...page);
      cursor = page[page.length - 1]?.cursor ?? cursor;
    }
    expect(pages).toEqual(all);
    expect(h.store.readEventsAfter(0, { runs: [], limit: 10 })).toEqual([]);
    expect(h.store.lastCursor()).toBe(all.length);
    for (const id of ids) expect(h.store.lastCursor(id)).toBe(all.filter((c) => c.event.runId === id).at(-1)?.cursor);
    expect(h.store.lastCursor('no-such-run')).toBe(0);
  });

  it('readEventsAfter(cursor, {maxChars}) stops once the page holds that much stored data, and pages join to the whole', async () => {
    h = harness();
    const big = { ...chain('big', 3), input: { type: 'object' } };
    const { runId } = h.start(big, { pad: 'x'.repeat(50_000) });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.flush();
    const all = h.store.readEventsAfter(0, { limit: 10_000 });
    const sizes = new Map(all.map((c) => [c.cursor, c.dataJson?.length ?? 0]));
    const pages: CommittedEvent[][] = [];
    let cursor = 0;
    for (let page = h.store.readEventsAfter(cursor, { maxChars: 30_000 }); page.length > 0; page = h.store.readEventsAfter(cursor, { maxChars: 30_000 })) {
      pages.push(page);
      cursor = page[page.length - 1]?.cursor ?? cursor;
    }
    expect(pages.flat()).toEqual(all);
    for (const page of pages) {
      // Under the budget until its last event, which may pass it (a page has at least one event).
      const before = page.slice(0, -1).reduce((n, c) => n + (sizes.get(c.cursor) ?? 0), 0);
      expect(before).toBeLessThan(30_000);
    }
    // The events holding the 50 KB input come one to a page.
    expect(pages.filter((p) => p.length === 1 && (sizes.get(p[0]?.cursor ?? 0) ?? 0) > 50_000).length).toBeGreaterThan(1);
    expect(h.store.readEventsAfter(0, { maxChars: 10_000_000 })).toEqual(all);
    expect(() => h?.store.readEventsAfter(0, { maxChars: 0 })).toThrow(/maxChars must be a whole number ≥ 1/);
  });

  it('refuses a limit or position that is not a whole number, with the argument named', () => {
    const store = new Store(openDatabase(join(temp(), 'bad.db')));
    expect(() => store.readEventsAfter(-1)).toThrow(/cursor must be a whole number ≥ 0/);
    expect(() => store.readEventsAfter(0, { limit: 0 })).toThrow(/limit must be a whole number ≥ 1/);
    expect(() => store.readEvents('r', { after: 1.5 })).toThrow(/after must be a whole number ≥ 0/);
  });
});
