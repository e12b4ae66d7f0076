// The log tail of a PostgreSQL store (engine/store/pg/log-tail.ts): two stores on one schema, as
// two engines' processes have, each with an engine running runs of its own. A subscriber of store
// B hears every event both engines commit, once each, in cursor order (ascending, no hole: the
// whole log), whether it came from B's own commits (published as they commit) or from A's
// (LISTEN/NOTIFY, read by cursor); also after B's LISTEN connection is killed on the server
// (the gap is read anyway), and with the poll set to an hour, so notifications and gaps alone
// must deliver. The poll alone delivers too (a source that never notifies). Real PostgreSQL; the
// process lane runs it (it starts a cluster of its own unless WEFT_TEST_PG names one).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../engine/runtime/engine.ts';
import type { CommittedEvent, Store } from '../../engine/store/store.ts';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import type { PgDb } from '../../engine/store/pg/pg-db.ts';
import { CommitListeners } from '../../engine/store/commit-listeners.ts';
import { LogTail, type LogTailSource } from '../../engine/store/pg/log-tail.ts';
import { until } from '../engine/until.ts';
import { engineOnPg } from '../fixtures/pg/pg-server.ts';
import { overrideEnv } from '../env-override.ts';
import { transformChain } from '../engine/transform-chain.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';
import { waitUntil } from '../wait-until.ts';

failWithoutPgUnderCi();

interface Side {
  db: PgDb;
  store: Store;
  engine: Engine;
  run(): string;
}

const HOUR_MS = String(60 * 60 * 1000);

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : "the log tail: a PostgreSQL store's subscribers hear every engine's commits", () => {
  let pg: TestPg;
  const open: Side[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'weft-tail-'));
  let restoreEnv = (): void => {};

  beforeAll(async () => {
    pg = await openTestPg();
  });
  afterEach(() => {
    for (const side of open.splice(0)) {
      side.engine.close();
      side.db.close();
    }
    restoreEnv();
  });
  afterAll(async () => {
    await pg?.close();
  });

  function side(schema: string): Side {
    const db = openPgDb(pg.url, { schema });
    const { store, engine, start } = engineOnPg(db, dir);
    const s: Side = { db, store, engine, run: () => start(transformChain('chain', 3)) };
    open.push(s);
    return s;
  }

  async function twoSides(): Promise<{ a: Side; b: Side; heard: CommittedEvent[] }> {
    // Notifications (and the gaps PgSync reports) must deliver on their own: the poll is an hour.
    restoreEnv = overrideEnv({ WEFT_PG_TAIL_POLL_MS: HOUR_MS });
    const { name } = await pg.newSchema();
    const a = side(name);
    const b = side(name);
    const heard: CommittedEvent[] = [];
    b.store.subscribe((c) => heard.push(c));
    return { a, b, heard };
  }

  /** What `store` holds after `from`, in cursor order: what a complete subscriber must have heard. */
  const logOf = (store: Store, from = 0): { cursor: number; runId: string; seq: number }[] => store.readEventsAfter(from, { limit: 100_000 }).map(brief);
  const brief = (c: CommittedEvent) => ({ cursor: c.cursor, runId: c.event.runId, seq: c.event.seq });

  it("hears the other store's commits and its own, each once, in cursor order", async () => {
    const { a, b, heard } = await twoSides();
    const start = b.store.lastCursor();
    const runs: string[] = [];
    for (let i = 0; i < 6; i++) {
      runs.push(a.run(), a.run(), b.run());
      await Promise.all(runs.slice(-3).map((r, k) => (k < 2 ? a : b).engine.settled(r)));
    }
    a.engine.flush();
    b.engine.flush();
    const whole = logOf(b.store, start);
    expect(new Set(whole.map((e) => e.runId))).toEqual(new Set(runs));
    await waitUntil(() => heard.length >= whole.length, `B's subscriber hears all ${whole.length} events (heard ${heard.length})`);
    expect(heard.map(brief)).toEqual(whole);
    const cursors = heard.map((c) => c.cursor);
    expect(cursors).toEqual(Array.from({ length: cursors.length }, (_, k) => start + 1 + k));
    expect(heard.some((c) => runs.indexOf(c.event.runId) % 3 !== 2)).toBe(true); // A's runs
    expect(heard.some((c) => runs.indexOf(c.event.runId) % 3 === 2)).toBe(true); // B's own
  });

  it('catches up after its LISTEN connection is killed on the server, and hears nothing twice', async () => {
    const { a, b, heard } = await twoSides();
    const start = b.store.lastCursor();
    await a.engine.settled(a.run());
    a.engine.flush();
    await waitUntil(() => heard.length === logOf(b.store, start).length && heard.length > 0, "B's subscriber hears A's first run");
    const killed = (b.db.pg.query("SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'weft listen' AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'").rows[0] as { n: number }).n;
    expect(killed).toBeGreaterThanOrEqual(1);
    // While B's LISTEN is down (or being made again), A goes on committing.
    const after = [a.run(), a.run()];
    await Promise.all(after.map((r) => a.engine.settled(r)));
    a.engine.flush();
    const whole = logOf(b.store, start);
    await waitUntil(() => heard.length >= whole.length, `B's subscriber hears all ${whole.length} events after the lost LISTEN (heard ${heard.length})`);
    expect(heard.map(brief)).toEqual(whole);
    // And it goes on hearing notifications on the new LISTEN connection.
    const later = a.run();
    await a.engine.settled(later);
    a.engine.flush();
    const all = logOf(b.store, start);
    await waitUntil(() => heard.length >= all.length, 'B hears the run after the reconnect');
    expect(heard.map(brief)).toEqual(all);
    expect(heard.filter((c) => c.event.runId === later).length).toBeGreaterThan(0);
  });

  it('stops with the last subscriber and with the connection; a new subscriber hears from its own start', async () => {
    restoreEnv = overrideEnv({ WEFT_PG_TAIL_POLL_MS: HOUR_MS });
    const { name } = await pg.newSchema();
    const a = side(name);
    const b = side(name);
    const first: CommittedEvent[] = [];
    const stop = b.store.subscribe((c) => first.push(c));
    stop();
    await a.engine.settled(a.run());
    a.engine.flush();
    const start = b.store.lastCursor();
    const second: CommittedEvent[] = [];
    b.store.subscribe((c) => second.push(c));
    const run = a.run();
    await a.engine.settled(run);
    a.engine.flush();
    const whole = logOf(b.store, start);
    await waitUntil(() => second.length >= whole.length, 'the second subscriber hears the second run');
    expect(second.map(brief)).toEqual(whole);
    expect(first).toEqual([]);
    b.db.close();
    open.splice(open.indexOf(b), 1);
    b.engine.close();
    // A commit after B closed reaches no one, and fails nothing.
    await a.engine.settled(a.run());
    a.engine.flush();
    expect(second.map(brief)).toEqual(whole);
  });
});

describe('the log tail without notifications', () => {
  it('reads by its poll alone, publishes once in cursor order, and retries a failed read from the same cursor', async () => {
    const log: CommittedEvent[] = [];
    let failNext = false;
    let reads = 0;
    const source: LogTailSource = {
      readAfter: (cursor, limit) => {
        reads += 1;
        if (failNext) {
          failNext = false;
          throw new Error('connection lost');
        }
        return log.filter((c) => c.cursor > cursor).slice(0, limit);
      },
      lastCursor: () => log.length,
      listen: () => () => undefined,
      closed: false,
    };
    const add = (n: number): void => {
      for (let k = 0; k < n; k++) log.push({ cursor: log.length + 1, event: { runId: 'r', seq: log.length + 1 } as CommittedEvent['event'] });
    };
    add(3);
    const listeners = new CommitListeners();
    const heard: number[] = [];
    listeners.add((c) => heard.push(c.cursor));
    const errors: unknown[] = [];
    const tail = new LogTail(source, listeners, { pollMs: 5, onReadError: (e) => errors.push(e) });
    tail.start();
    add(600);
    await until(() => heard.length === 600, 'the poll reads the 600 events');
    expect(heard).toEqual(Array.from({ length: 600 }, (_, k) => 4 + k));
    failNext = true;
    add(2);
    await until(() => heard.length === 602, 'the poll reads again after the failed read');
    expect(errors.length).toBe(1);
    // Its own commit, after others it has not read yet: those first, then its own, each once.
    add(2);
    const own = log.slice(-1);
    tail.committed(own.slice(0));
    expect(heard.slice(-2)).toEqual([606, 607]);
    tail.committed([own[0] as CommittedEvent]);
    expect(heard).toEqual(Array.from({ length: 604 }, (_, k) => 4 + k));
    tail.stop();
    const readsAtStop = reads;
    add(1);
    tail.committed(log.slice(-1));
    expect(heard[heard.length - 1]).toBe(608);
    expect(reads).toBe(readsAtStop);
  });
});
