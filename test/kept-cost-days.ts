// What a SQLite store keeps of its finished runs' cost per day (engine/store/cost-rollups.ts): the
// rows of stat_cost_days and, since schema 20, the current day's bucket of each stat_runs row. A
// table expression with stat_cost_days' columns, for tests that check the stored days against the
// log without going through the store's own readers: `SELECT ... FROM ${KEPT_COST_DAYS} GROUP BY ...`.
export const KEPT_COST_DAYS = `(
  SELECT workflow_id, version, day, succeeded, currency, micros, input_tokens, output_tokens, attempts FROM stat_cost_days
  UNION ALL
  SELECT workflow_id, version, cost_day, CASE WHEN state = 'succeeded' THEN 1 ELSE 0 END, cost_currency, cost_micros, cost_input_tokens, cost_output_tokens, cost_attempts
  FROM stat_runs WHERE cost_day IS NOT NULL
) AS kept`;

/** Migration 20's columns of stat_runs dropped, for a test that makes a store of an older schema from a new one. */
export const DROP_COST_BUCKET_SQL = ['cost_day', 'cost_currency', 'cost_micros', 'cost_input_tokens', 'cost_output_tokens', 'cost_attempts']
  .map((c) => `ALTER TABLE stat_runs DROP COLUMN ${c};`)
  .join(' ');
