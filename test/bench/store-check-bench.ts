// What checking a store's log as a whole costs (engine/store/check-log.ts), which every command
// that writes pays once when it opens the store, on stores of 10k, 100k and 1M events (2,000
// runs of 50 events at 100k; 50 definition snapshots). Columns: the check alone, and opening the
// store to write (recognise, check, WAL) against opening it to read (recognise only).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_DATA } from '../../shared/events/run-event.ts';
import { findLogDamage } from '../../engine/store/check-log.ts';
import { definitionContent } from '../../engine/store/definition-content.ts';
import { sha256 } from '../../engine/store/canonical-json.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { SCHEMA_VERSION } from '../../engine/store/migrations.ts';
import { parseWorkflow } from '../engine/harness.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { generateWorkflow } from './generate-workflow.ts';

const RUNS = 7;
const EVENTS_PER_RUN = 50;
const DEFINITIONS = 50;

function buildStore(path: string, events: number): void {
  const db = openDatabase(path);
  const types = Object.keys(EVENT_DATA);
  const data = JSON.stringify({ output: { text: 'x'.repeat(300) } });
  const insert = db.prepare('INSERT INTO events (run_id, seq, at, type, step, activation, attempt, data, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const definition = db.prepare('INSERT INTO definitions (workflow_id, version, hash, content, created_at) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < events; i++) {
      const run = `r${String(Math.floor(i / EVENTS_PER_RUN)).padStart(14, '0')}`;
      insert.run(run, (i % EVENTS_PER_RUN) + 1, i, types[i % types.length], 'step', 1, 1, data, 'a reason');
    }
    const { workflow } = generateWorkflow({ steps: 20, seed: 1 });
    for (let v = 1; v <= DEFINITIONS; v++) {
      const content = definitionContent(parseWorkflow({ ...workflow, version: v }));
      definition.run('generated', v, sha256(content), content, 0);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function time(f: () => void): number {
  f();
  const samples: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const t = performance.now();
    f();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

export const benchmark: Benchmark = {
  name: 'store-check',
  description: 'checking a store log as a whole before a command writes (check-log.ts)',
  async run(print) {
    const dir = mkdtempSync(join(tmpdir(), 'weft-bench-check-'));
    const rows = [['events', 'MiB', 'check ms', 'open to write ms', 'open to read ms']];
    try {
      for (const events of [10_000, 100_000, 1_000_000]) {
        const path = join(dir, `${events}.db`);
        buildStore(path, events);
        const db = openDatabase(path, { mode: 'read' });
        const check = time(() => {
          if (findLogDamage(db, SCHEMA_VERSION) !== undefined) throw new Error('the generated store reads as damaged');
        });
        db.close();
        const write = time(() => openDatabase(path, { mode: 'write' }).close());
        const read = time(() => openDatabase(path, { mode: 'read' }).close());
        const { size } = await import('node:fs').then((fs) => fs.statSync(path));
        rows.push([events.toLocaleString('en'), (size / 2 ** 20).toFixed(0), check.toFixed(1), write.toFixed(1), read.toFixed(1)]);
        rmSync(path);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const line of formatTable(rows)) print(line);
    print(`median of ${RUNS} after 1 warm-up; ${EVENTS_PER_RUN} events per run, ~330-byte event data, ${DEFINITIONS} definition snapshots of 20 steps`);
  },
};
