// One engine per store: a command waits for a live owner's lease, then gives up with a clear
// message; a dead owner's lease is taken over at once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { runWeft } from './run-weft.ts';

describe('the store lease', () => {
  it('refuses while a live engine owns the store, after waiting, and takes over a dead one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-lease-'));
    const db = join(dir, 'store.db');
    const d = openDatabase(db);
    // This test process stands in for a live engine that keeps its heartbeat fresh.
    d.prepare('INSERT INTO lease (id, owner, pid, host, heartbeat_at) VALUES (1, ?, ?, ?, ?)').run('weft serve', process.pid, hostname(), Date.now() + 3_600_000);
    // Only the child waits briefly for the lease: the variable goes to its environment alone.
    const locked = await runWeft(['resume', '--db', db], undefined, { env: { WEFT_LEASE_WAIT_MS: '300' } });
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain(`the store is being run by weft serve (process ${process.pid} on ${hostname()})`);
    // The owner dies: a pid that cannot exist.
    d.prepare('UPDATE lease SET pid = ? WHERE id = 1').run(2_147_483_000);
    const taken = await runWeft(['resume', '--db', db], undefined, { env: { WEFT_LEASE_WAIT_MS: '300' } });
    expect(taken.code).toBe(0);
    expect(taken.stdout).toBe('no unfinished runs\n');
    d.close();
  });
});
