// A real Engine on a real SQLite file in a fresh temp folder, with the system clock and random
// source, for the engine benchmark; and what the store holds afterwards (rows, bytes, file size).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepKind } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Executor } from '../../engine/executors/executor.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { Lease } from '../../engine/store/lease.ts';
import type { PolicySnapshot } from '../../shared/policy/policy-schema.ts';
import type { PriceTable } from '../../shared/cost/price-table.ts';

export interface EngineFixture {
  dir: string;
  dbPath: string;
  store: Store;
  engine: Engine;
  /** Saves the definition (once per workflow) and starts a run. */
  start(workflow: Workflow): string;
  /** What the event table holds. */
  eventTotals(): { events: number; dataBytes: number };
  /** Size of the store file after a full checkpoint (the WAL folded in). */
  fileBytes(): number;
  close(): void;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** What a governed workspace adds: the policy its runs start under and its price table (docs/policies.md, docs/cost.md). */
export interface Governance {
  policy?: PolicySnapshot;
  prices?: PriceTable;
}

export function engineFixture(executors: Partial<Record<StepKind, Executor>> = {}, dir = tempDir('weft-bench-'), governance: Governance = {}): EngineFixture {
  const dbPath = join(dir, 'weft.db');
  const db = openDatabase(dbPath);
  const store = new Store(db);
  // The engine lease, as every engine that schedules a store holds it (engine-host.ts).
  const lease = new Lease(db, 'weft bench', systemClock.now);
  lease.acquire();
  store.useLease(lease);
  const table = governance.prices;
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors, ...(table === undefined ? {} : { prices: () => table }) });
  const policy = governance.policy === undefined ? {} : { policy: governance.policy };
  const hashes = new Map<Workflow, string>();
  return {
    dir,
    dbPath,
    store,
    engine,
    start(workflow) {
      let hash = hashes.get(workflow);
      if (hash === undefined) hashes.set(workflow, (hash = store.saveDefinition(workflow, Date.now())));
      return engine.startRun({ workflow, definitionHash: hash, input: {}, workspaceDir: dir, ...policy });
    },
    eventTotals() {
      return db.prepare('SELECT count(*) AS events, coalesce(sum(length(data)), 0) AS dataBytes FROM events').get() as { events: number; dataBytes: number };
    },
    fileBytes() {
      db.pragma('wal_checkpoint(TRUNCATE)');
      return statSync(dbPath).size;
    },
    close() {
      engine.close();
      lease.release();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
