// A CLI command that schedules runs owns the store while it works: it opens the store, takes the
// engine lease (refusing while another live engine holds it; a dead owner's lease is taken over),
// keeps the lease fresh, and gives it back on close. Read-only commands open the store without it.
import { existsSync } from 'node:fs';
import { Engine } from '../runtime/engine.ts';
import { StoreError } from '../store/store-error.ts';
import { systemClock, systemRandom } from '../runtime/clock.ts';
import { defaultExecutors } from '../executors/default-executors.ts';
import { Lease } from '../store/lease.ts';
import { openDatabase } from '../store/open-database.ts';
import { Store } from '../store/store.ts';

export interface EngineSession {
  store: Store;
  engine: Engine;
  close(): void;
}

const HEARTBEAT_MS = 5_000;

export function openEngineSession(dbPath: string, owner: string): EngineSession {
  const db = openDatabase(dbPath);
  const store = new Store(db);
  const lease = new Lease(db, owner, systemClock.now);
  try {
    lease.acquire();
  } catch (e) {
    db.close();
    throw e;
  }
  const heartbeat = setInterval(() => lease.heartbeat(), HEARTBEAT_MS);
  heartbeat.unref();
  let fatal: unknown;
  const engine = new Engine({
    store,
    clock: systemClock,
    random: systemRandom,
    executors: defaultExecutors(),
    onFatal: (e) => {
      fatal = e;
    },
  });
  return {
    store,
    engine,
    close() {
      clearInterval(heartbeat);
      engine.close();
      if (fatal === undefined) engine.flush();
      lease.release();
      db.close();
      if (fatal !== undefined) throw fatal;
    },
  };
}

/** For commands that only read: no lease, and a store that must already exist. */
export function openReadOnlyStore(dbPath: string): { store: Store; close(): void } {
  if (!existsSync(dbPath)) {
    throw new StoreError('io', `there is no store at ${dbPath}; run a workflow first (weft run FILE), or point --db or WEFT_DB at the store`);
  }
  const db = openDatabase(dbPath);
  return { store: new Store(db), close: () => db.close() };
}
