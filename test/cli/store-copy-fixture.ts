// What the `weft store copy` tests share: a workflow whose runs wait for an event and then a
// person, a source store with one run finished and one waiting (made through the real binary),
// and what two stores are compared by: every table's rows, and each run's fold.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Db } from '../../engine/store/db.ts';
import { Store } from '../../engine/store/store.ts';
import { runMetrics } from '../../engine/metrics/run-metrics.ts';
import { storeTables } from '../../engine/store/copy-store.ts';
import { runWeft } from './run-weft.ts';

/** Writes the workflow into `dir`; its file. */
export function approvalWorkflow(dir: string): string {
  const file = join(dir, 'approval.weft.json');
  writeFileSync(file, JSON.stringify({
    format: 'weft/v1', id: 'approval', version: 1, name: 'Approval',
    input: { type: 'object', properties: { orderId: { type: 'string' } } },
    steps: [
      { id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.orderId' }, deadlineMs: 86_400_000 },
      { id: 'review', kind: 'human', config: { task: 'approve', title: 'Ship order {{ input.orderId }}?' }, deadlineMs: 86_400_000 },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'a', from: 'paid', to: 'review' }, { id: 'b', from: 'review', to: 'done' }],
  }));
  return file;
}

/** A store at `db` with run A1 finished (its event sent, approved) and run B2 waiting for its event: their ids. */
export async function storeWithRuns(file: string, db: string): Promise<{ finished: string; waiting: string }> {
  const first = await runWeft(['run', file, '--db', db, '--input', '{"orderId": "A1"}', '--json']);
  expect(first.code).toBe(3);
  const finished = (JSON.parse(first.stdout) as { runId: string }).runId;
  expect((await runWeft(['send', 'payment.received', '--key', 'A1', '--db', db])).code).toBe(0);
  expect((await runWeft(['approve', finished, 'review', '--db', db])).code).toBe(0);
  const second = await runWeft(['run', file, '--db', db, '--input', '{"orderId": "B2"}', '--json']);
  expect(second.code).toBe(3);
  return { finished, waiting: (JSON.parse(second.stdout) as { runId: string }).runId };
}

/** Every table's rows in key order, as JSON lines (the lease left out: a copy is not being run). */
export function tableRows(db: Db): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const t of storeTables()) rows[t.name] = (db.prepare(`SELECT ${t.columns.join(', ')} FROM ${t.name} ORDER BY ${t.key.join(', ')}`).raw().all() as unknown[][]).map((r) => JSON.stringify(r));
  return rows;
}

/** Each run's metrics folded from its log. */
export function folds(db: Db): Record<string, unknown> {
  const store = new Store(db);
  const ids = db.prepare('SELECT id FROM runs ORDER BY id').pluck().all() as string[];
  return Object.fromEntries(ids.map((id) => [id, runMetrics(store.readRunLog(id), 0)]));
}

/** What `weft store copy --json` prints. */
export interface CopyJson {
  tables: Record<string, number>;
  events: { count: number; lastCursor: number; digest: string };
}
