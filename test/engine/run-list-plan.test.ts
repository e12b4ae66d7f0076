// The runs list pages by index, never by sorting every run: for each filter (none, workflow,
// state, both) and for a first page and a later one (`after`), SQLite's plan for listRunPage's
// query walks an index in (created_at, id) order and needs no temporary sort. A page of 100 runs
// took 64 ms at 100,000 runs when it sorted them all (test/bench/reads-bench.ts measures it).
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import type { Db } from '../../engine/store/db.ts';
import { listRunPage, type RunListFilter } from '../../engine/store/run-list.ts';

/** The plan of every statement listRunPage prepares with `filter`, as EXPLAIN QUERY PLAN tells it. */
function plansOf(db: Db, filter: RunListFilter): string[] {
  const plans: string[] = [];
  const spy = new Proxy(db, {
    get(target, key) {
      if (key !== 'prepare') return Reflect.get(target, key) as unknown;
      return (sql: string) => {
        const n = (sql.match(/\?/g) ?? []).length;
        const rows = target.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: n }, () => 1)) as { detail: string }[];
        plans.push(rows.map((r) => r.detail).join(' | '));
        return target.prepare(sql);
      };
    },
  }) as Db;
  listRunPage(spy, filter);
  return plans;
}

describe('the runs list query plan', () => {
  const db = openDatabase(':memory:');
  const filters: [string, RunListFilter][] = [
    ['no filter', {}],
    ['a workflow', { workflow: 'w' }],
    ['a state', { state: 'failed' }],
    ['a workflow and a state', { workflow: 'w', state: 'failed' }],
  ];
  for (const [name, filter] of filters) {
    for (const after of [undefined, '1764585600000:r1']) {
      it(`${name}, ${after === undefined ? 'first page' : 'later page'}: walks an index in page order, with no sort`, () => {
        const [plan] = plansOf(db, { ...filter, ...(after === undefined ? {} : { after }), limit: 100 });
        expect(plan).toMatch(/USING (COVERING )?INDEX runs_(newest|by_workflow_newest|by_state)\b/);
        expect(plan).not.toContain('TEMP B-TREE');
        // A later page seeks to its place by the row value, not by reading from the newest run.
        if (after !== undefined && filter.workflow === undefined && filter.state === undefined) expect(plan).toMatch(/SEARCH runs USING INDEX runs_newest \(\(created_at,id\)<\(\?,\?\)\)/);
      });
    }
  }
});
