// The conformance suite (issue 25): the engine tests that run on PostgreSQL too, unchanged, in the
// vitest project `pg` (WEFT_TEST_STORE=postgres: their harness opens a PostgreSQL schema of its
// own, test/fixtures/store/test-store.ts). On SQLite they run in the unit lane as ever, so each
// of these proves the same behaviour on both stores.
export const CONFORMANCE_FILES: readonly string[] = [
  'test/engine/a17.test.ts',
  'test/engine/agent-routing.test.ts',
  'test/engine/attempts.test.ts',
  'test/engine/children.test.ts',
  'test/engine/compensation-liveness.test.ts',
  'test/engine/debug-runs.test.ts',
  'test/engine/drain.test.ts',
  'test/engine/graph.test.ts',
  'test/engine/handoff-records.test.ts',
  'test/engine/loop-exhaustion.test.ts',
  'test/engine/operator-flow.test.ts',
  'test/engine/operator-redecision.test.ts',
  'test/engine/partial-completion.test.ts',
  'test/engine/people-events.test.ts',
  'test/engine/queue.test.ts',
  'test/engine/revalidation.test.ts',
  'test/engine/revise-effects.test.ts',
  'test/engine/revision-plan.test.ts',
  'test/engine/run-to-scenario-refusals.test.ts',
  'test/engine/scenario-revise.test.ts',
  'test/engine/scenario.test.ts',
  'test/engine/stored-event-recovery.test.ts',
  'test/engine/withdrawal.test.ts',
];
