// The engine folds a run from its log as it wrote it (Store.readRunLog), without re-parsing each
// event's data with zod: a resume of 1,000 runs did that for every event (issue 20, step 9).
// What it still refuses (unknown types, data that is not JSON or not an object, gaps), and the
// damage the fold trips over, which is read again with the full check and named.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import type { Db } from '../../engine/store/db.ts';
import { StoreError } from '../../engine/store/store-error.ts';
import { EVENT_DATA, EVENT_TYPES } from '../../shared/events/run-event.ts';
import { harness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  h?.close();
  h = undefined;
});

const parked = {
  format: 'weft/v1', id: 'parked', version: 1, name: 'parked',
  steps: [{ id: 'first', kind: 'transform', config: { expression: '{"n": 1}' } }, { id: 'pause', kind: 'wait', config: { durationMs: 3_600_000 } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'a', from: 'first', to: 'pause' }, { id: 'b', from: 'pause', to: 'done' }],
};

/** A run parked on its timer, committed, with every event schema's safeParse counted from here on. */
async function parkedRun(): Promise<{ h: Harness; runId: string; parses: () => number }> {
  h = harness();
  const { runId } = h.start(parked);
  expect(await h.engine.settled(runId)).toBe('waiting');
  const spies = EVENT_TYPES.map((type) => {
    const schema: z.ZodType = EVENT_DATA[type];
    return vi.spyOn(schema, 'safeParse');
  });
  return { h, runId, parses: () => spies.reduce((n, s) => n + s.mock.calls.length, 0) };
}

describe('a run folded from its log', () => {
  it('is the run the checked log gives, without parsing any event with its schema', async () => {
    const { h, runId, parses } = await parkedRun();
    const model = foldRun(h.store, runId);
    expect(parses()).toBe(0);
    expect(model.state).toBe('waiting');
    expect(model.steps.get('first')?.output).toEqual({ n: 1 });
    // The checked read parses every event, and its fold is the same run.
    const checked = h.store.readEvents(runId);
    expect(parses()).toBe(checked.length);
    expect(h.store.readRunLog(runId)).toEqual(checked);
    expect(foldRun(h.store, runId, checked)).toEqual(model);
  });

  it('is loaded by a restarted engine without parsing any event with its schema', async () => {
    const { h, runId, parses } = await parkedRun();
    const engine = h.restart();
    expect(engine.recover()).toEqual({ runs: 1, interrupted: 0 });
    expect(await engine.settled(runId)).toBe('waiting');
    expect(parses()).toBe(0);
  });

  it('names an event whose data the fold trips over, through the full check', async () => {
    const { h, runId } = await parkedRun();
    const settled = h.store.readEvents(runId).find((e) => e.type === 'step_settled');
    h.db.prepare('UPDATE events SET data = ? WHERE run_id = ? AND seq = ?').run('{"outcome":"succeeded"}', runId, settled?.seq);
    const thrown = (() => {
      try {
        foldRun(h.store, runId);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(StoreError);
    expect((thrown as StoreError).code).toBe('damaged');
    expect((thrown as StoreError).message).toMatch(new RegExp(`^run ${runId} event ${settled?.seq}: step_settled event data does not match its schema: .*; the store is damaged`));
  });
});

describe('a restarted engine recovering runs', () => {
  it('reads the logs of all its unfinished runs in one query, without parsing any event with its schema', async () => {
    const { h, runId, parses } = await parkedRun();
    const second = h.start(parked).runId;
    expect(await h.engine.settled(second)).toBe('waiting');
    const engine = h.restart();
    const batched = vi.spyOn(h.store, 'readRunLogs');
    const single = vi.spyOn(h.store, 'readRunLog');
    expect(engine.recover()).toEqual({ runs: 2, interrupted: 0 });
    expect(batched.mock.calls.map(([ids]) => [...ids].sort())).toEqual([[runId, second].sort()]);
    expect(single).not.toHaveBeenCalled();
    expect(parses()).toBe(0);
    expect([await engine.settled(runId), await engine.settled(second)]).toEqual(['waiting', 'waiting']);
  });

  it('names an event whose data the fold trips over, through the full check', async () => {
    const { h, runId } = await parkedRun();
    const settled = h.store.readEvents(runId).find((e) => e.type === 'step_settled');
    h.db.prepare('UPDATE events SET data = ? WHERE run_id = ? AND seq = ?').run('{"outcome":"succeeded"}', runId, settled?.seq);
    const engine = h.restart();
    expect(() => engine.recover()).toThrow(new RegExp(`^run ${runId} event ${settled?.seq}: step_settled event data does not match its schema: .*; the store is damaged`));
  });
});

describe('Store.readRunLog', () => {
  /** A store over a log of these rows, written with the test's own connection (which it closes). */
  function storeWith(rows: [number, string, string][]): { store: Store; db: Db } {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'weft-run-log-')), 'log.db'));
    for (const [seq, type, data] of rows) db.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES ('r1', ?, 1, ?, ?)").run(seq, type, data);
    return { store: new Store(db), db };
  }

  it.each([
    ['an unknown type', [[1, 'teleported', '{}']], /^run r1 event 1: unknown event type "teleported"; the store is damaged, or was written by a newer Weft/],
    ['data that is not JSON', [[1, 'timer_fired', '{']], /^run r1 event 1: stored data is not JSON; the store is damaged$/],
    ['data that is not an object', [[1, 'timer_fired', '[1]']], /^run r1 event 1: timer_fired event data is not an object; the store is damaged$/],
    ['data that is null', [[1, 'timer_fired', 'null']], /^run r1 event 1: timer_fired event data is not an object; the store is damaged$/],
    ['a gap', [[1, 'timer_fired', '{}'], [3, 'timer_fired', '{}']], /^run r1 has a gap in its event log: event 2 is missing; the store is damaged/],
  ] as [string, [number, string, string][], RegExp][])('refuses %s', (_name, rows, message) => {
    const { store, db } = storeWith(rows);
    expect(() => store.readRunLog('r1')).toThrow(message);
    expect(() => store.readRunLog('r1')).toThrow(StoreError);
    db.close();
  });
});

describe('Store.readRunLogs', () => {
  /** A store over these rows of runs r1, r2, …, written with the test's own connection (which it closes). */
  function storeWith(rows: [string, number, string, string][]): { store: Store; db: Db } {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'weft-run-logs-')), 'log.db'));
    for (const [runId, seq, type, data] of rows) db.prepare('INSERT INTO events (run_id, seq, at, type, data) VALUES (?, ?, 1, ?, ?)').run(runId, seq, type, data);
    return { store: new Store(db), db };
  }

  it('gives each run the log readRunLog gives it, and a run without events an empty one', () => {
    const { store, db } = storeWith([['r2', 1, 'timer_fired', '{"stepId":"b"}'], ['r1', 1, 'timer_fired', '{"stepId":"a"}'], ['r2', 2, 'timer_fired', '{"stepId":"c"}'], ['r3', 1, 'timer_fired', '{}']]);
    const logs = store.readRunLogs(['r2', 'r1', 'none']);
    expect([...logs.keys()]).toEqual(['r2', 'r1', 'none']);
    expect(logs.get('r1')).toEqual(store.readRunLog('r1'));
    expect(logs.get('r2')).toEqual(store.readRunLog('r2'));
    expect(logs.get('r2')?.map((e) => e.seq)).toEqual([1, 2]);
    expect(logs.get('none')).toEqual([]);
    expect(store.readRunLogs([])).toEqual(new Map());
    db.close();
  });

  it.each([
    ['an unknown type', [['r2', 1, 'teleported', '{}']], /^run r2 event 1: unknown event type "teleported"; the store is damaged, or was written by a newer Weft/],
    ['data that is not JSON', [['r2', 1, 'timer_fired', '{']], /^run r2 event 1: stored data is not JSON; the store is damaged$/],
    ['data that is not an object', [['r2', 1, 'timer_fired', '[1]']], /^run r2 event 1: timer_fired event data is not an object; the store is damaged$/],
    ['a gap', [['r2', 2, 'timer_fired', '{}']], /^run r2 has a gap in its event log: event 1 is missing; the store is damaged/],
  ] as [string, [string, number, string, string][], RegExp][])('refuses %s in any run it reads, naming that run', (_name, rows, message) => {
    const { store, db } = storeWith([['r1', 1, 'timer_fired', '{}'], ['r1', 2, 'timer_fired', '{}'], ...rows, ['r3', 1, 'timer_fired', '{}']]);
    expect(() => store.readRunLogs(['r1', 'r2', 'r3'])).toThrow(message);
    expect(() => store.readRunLogs(['r1', 'r2', 'r3'])).toThrow(StoreError);
    expect(store.readRunLogs(['r1', 'r3']).get('r1')).toHaveLength(2);
    db.close();
  });
});
