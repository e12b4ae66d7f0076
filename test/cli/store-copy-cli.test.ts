// `weft store copy FROM TO` through the real binary (engine/store/copy-store.ts): a store with a
// finished run and one waiting for an event and a person is copied into a new store; the events
// are byte-identical with the same cursors, every table holds the same rows, each run folds the
// same, and the waiting run finishes in the copy. A target that holds runs, a source a live
// engine runs, a missing source and bad arguments are refused with exit 2, changing nothing.
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { approvalWorkflow, folds, storeWithRuns, tableRows, type CopyJson } from './store-copy-fixture.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-store-copy-'));
const file = approvalWorkflow(dir);

describe('weft store copy', () => {
  it('copies a store event for event, and a waiting run finishes in the copy', async () => {
    const from = join(dir, 'from.db');
    const { waiting } = await storeWithRuns(file, from);

    const to = join(dir, 'to.db');
    const copied = await runWeft(['store', 'copy', from, to, '--json']);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    const report = JSON.parse(copied.stdout) as CopyJson;
    expect(report.tables['runs']).toBe(2);

    const a = openDatabase(from, { mode: 'read' });
    const b = openDatabase(to, { mode: 'read' });
    try {
      expect(report.events.count).toBe(a.prepare('SELECT count(*) FROM events').pluck().get());
      expect(tableRows(b)).toEqual(tableRows(a));
      expect(folds(b)).toEqual(folds(a));
      expect(b.prepare('SELECT count(*) FROM lease').pluck().get()).toBe(0);
    } finally {
      a.close();
      b.close();
    }

    // The waiting run goes on in the copy: the event arrives, a person approves, it finishes.
    expect((await runWeft(['send', 'payment.received', '--key', 'B2', '--db', to])).code).toBe(0);
    expect((await runWeft(['approve', waiting, 'review', '--db', to])).code).toBe(0);
    const shown = await runWeft(['inspect', waiting, '--db', to, '--json']);
    expect((JSON.parse(shown.stdout) as { run: { state: string } }).run.state).toBe('succeeded');
    // ...and its new events follow the copied cursors.
    const c = openDatabase(to, { mode: 'read' });
    try {
      expect(c.prepare('SELECT min(cursor) FROM events WHERE cursor > ?').pluck().get(report.events.lastCursor)).toBe(report.events.lastCursor + 1);
    } finally {
      c.close();
    }

    // The same copy again: the target now holds runs.
    const again = await runWeft(['store', 'copy', from, to]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/the target store already holds 2 runs; nothing was copied; copy into a new, empty store/);
    expect(again.stderr).not.toContain(STACK_LINE);
  });

  it('refuses a source a live engine runs unless --force, a missing source and bad arguments', async () => {
    const from = join(dir, 'live.db');
    expect((await runWeft(['run', file, '--db', from, '--input', '{"orderId": "C3"}'])).code).toBe(3);
    const d = openDatabase(from);
    d.prepare('INSERT INTO lease (id, owner, pid, host, heartbeat_at) VALUES (1, ?, ?, ?, ?)').run('weft serve', process.pid, hostname(), Date.now() + 3_600_000);
    d.close();
    const refused = await runWeft(['store', 'copy', from, join(dir, 'live-copy.db')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`the source store is being run by weft serve (process ${process.pid} on ${hostname()})`);
    expect(refused.stderr).toContain('give --force');
    const forced = await runWeft(['store', 'copy', from, join(dir, 'live-copy.db')]);
    expect(forced.code).toBe(2);
    const withForce = await runWeft(['store', 'copy', from, join(dir, 'live-copy.db'), '--force']);
    expect(withForce.stderr).toBe('');
    expect(withForce.code).toBe(0);
    expect(withForce.stdout).toMatch(/^copied 1 run and \d+ events \(last cursor \d+\) from .*live\.db to .*live-copy\.db; the events' digests match/);

    const missing = await runWeft(['store', 'copy', join(dir, 'nope.db'), join(dir, 'x.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.db/);
    expect(missing.stderr).not.toContain(STACK_LINE);
    for (const [args, message] of [
      [['store'], /give what to do: weft store copy FROM TO/],
      [['store', 'move', 'a', 'b'], /unknown store action "move"/],
      [['store', 'copy', 'a'], /give the store to copy and the store to copy it into/],
      [['store', 'copy', 'a.db', 'a.db'], /FROM and TO are the same store/],
    ] as const) {
      const r = await runWeft(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
