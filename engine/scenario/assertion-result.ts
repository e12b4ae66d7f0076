// One check of a scenario's `expect`: what was checked, whether it held, and both sides. Its own
// file, so the checks (check-attempts.ts, check-across-runs.ts, scenario-problems.ts) and the
// scenario runner that calls them all import it without importing one another in a circle.
export interface AssertionResult {
  what: string;
  ok: boolean;
  expected: unknown;
  actual: unknown;
}
