// One engine schedules a store at a time. The lease row names the owning process; a lease whose
// process is gone (on this host) or whose heartbeat is stale is taken over, so a kill -9 never
// locks a store, and two live engines never both schedule it.
import { hostname } from 'node:os';
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';

/** A heartbeat older than this means the owner is gone even if we cannot check its pid. */
const STALE_MS = 30_000;

interface LeaseRow {
  owner: string;
  pid: number;
  host: string;
  heartbeat_at: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

export class Lease {
  private readonly host = hostname();
  /** Taken by acquire() and not released nor found taken over since (heartbeat). */
  private holding = false;

  constructor(
    private readonly db: Db,
    private readonly owner: string,
    private readonly now: () => number,
  ) {}

  /** Takes the lease or throws StoreError('locked') naming the live owner. */
  acquire(): void {
    this.db.transaction(() => {
      const row = this.db.prepare('SELECT owner, pid, host, heartbeat_at FROM lease WHERE id = 1').get() as LeaseRow | undefined;
      if (row && row.pid !== process.pid && this.liveOwner(row)) {
        throw new StoreError(
          'locked',
          `the store is being run by ${row.owner} (process ${row.pid} on ${row.host}); wait for it to finish, or stop it, and try again`,
        );
      }
      this.db
        .prepare('INSERT INTO lease (id, owner, pid, host, heartbeat_at) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, host = excluded.host, heartbeat_at = excluded.heartbeat_at')
        .run(this.owner, process.pid, this.host, this.now());
    }).immediate();
    this.holding = true;
  }

  /**
   * Keeps the lease fresh. A heartbeat that finds the row no longer ours (another engine took a
   * stale lease over: this process was stopped for longer than STALE_MS) leaves `held` false.
   */
  heartbeat(): void {
    const { changes } = this.db.prepare('UPDATE lease SET heartbeat_at = ? WHERE id = 1 AND pid = ?').run(this.now(), process.pid);
    if (changes === 0) this.holding = false;
  }

  release(): void {
    this.holding = false;
    this.db.prepare('DELETE FROM lease WHERE id = 1 AND pid = ?').run(process.pid);
  }

  /**
   * This process holds the lease: it is the one engine scheduling the store, so the runs' events
   * and rollups are written on its connection alone (a cache of them needs no check for others' commits).
   */
  get held(): boolean {
    return this.holding;
  }

  /**
   * A live owner heartbeats every few seconds. On this host its pid must also be alive: a dead pid
   * frees the lease at once. A stale heartbeat frees it anyway, so a pid reused by an unrelated
   * process after a crash cannot lock the store.
   */
  private liveOwner(row: LeaseRow): boolean {
    const fresh = this.now() - row.heartbeat_at < STALE_MS;
    if (row.host === this.host) return fresh && alive(row.pid);
    return fresh;
  }
}
