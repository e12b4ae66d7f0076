// One check of a scenario's `expect`: what was checked, whether it held, and both sides. Its own
// file, so the checks (check-attempts.ts, check-across-runs.ts, scenario-problems.ts) and the
// scenario runner that calls them all import it without importing one another in a circle.
import { isDeepStrictEqual } from 'node:util';
import { alignRedacted } from '../../shared/artifacts/sensitive-placeholder.ts';

export interface AssertionResult {
  what: string;
  ok: boolean;
  expected: unknown;
  actual: unknown;
}

/**
 * The check that `actual` is what the scenario expected, value for value; where it expects the
 * sensitive placeholder, a redacted sensitive reference is what it expected (docs/scenarios.md).
 *
 * @example
 * assertion('run state', 'succeeded', run.state); // { what: 'run state', ok: true, … }
 */
export function assertion(what: string, expected: unknown, actual: unknown): AssertionResult {
  return { what, ok: isDeepStrictEqual(expected, alignRedacted(expected, actual)), expected, actual };
}
