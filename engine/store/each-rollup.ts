// Reading every finished run's rollup (`run_metrics`, run-rollups.ts) for a migration's backfill:
// by pages, as the backfill writes on the same connection while it reads.
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';
import type { Db } from './db.ts';

/**
 * Every finished run's rollup (those `where` keeps, an SQL condition over `metrics`), in pages of
 * 1,000: SQLite cannot write on the connection while a read on it is open, and a backfill writes.
 */
export function eachRollup(db: Db, where: string, each: (m: RunMetrics) => void): void {
  const page = db.prepare(`SELECT rowid, metrics FROM run_metrics WHERE rowid > ? ${where === '' ? '' : `AND ${where}`} ORDER BY rowid LIMIT 1000`).raw();
  for (let after = 0; ; ) {
    const rows = page.all(after) as [number, string][];
    for (const [, json] of rows) each(JSON.parse(json) as RunMetrics);
    const last = rows[rows.length - 1];
    if (last === undefined) return;
    after = last[0];
  }
}
