// A scenario whose run the workspace policy refuses to start (docs/scenarios.md, "A refused
// start"): `expect.refused` names the policy finding the refusal must give. The check is the one
// `weft run`, the server and forks make (shared/policy/check-policy.ts), so a scenario proves what
// a real start would do.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { policyStartRefusal } from '../../shared/policy/check-policy.ts';
import type { Policy } from '../../shared/policy/policy-schema.ts';
import type { ScenarioExpectAll } from '../../shared/scenario/scenario-schema.ts';
import type { AssertionResult } from './assertion-result.ts';

/**
 * What the start of the scenario's run decides: `start` when it may run (and no refusal was
 * expected), else the assertions that end the scenario (the refusal expected or not, or a start
 * that was expected to be refused).
 *
 * @example
 * startVerdict(workflow, policy, { refused: 'policy_approval_missing' }); // { kind: 'end', assertions: [{ what: 'start refused', ok: true, … }] }
 */
export function startVerdict(workflow: Workflow, policy: Policy | undefined, expect: Pick<ScenarioExpectAll, 'refused'>): { kind: 'start' } | { kind: 'end'; assertions: AssertionResult[] } {
  const refusal = policyStartRefusal(workflow, policy);
  const want = expect.refused;
  if (refusal === undefined) {
    if (want === undefined) return { kind: 'start' };
    return { kind: 'end', assertions: [{ what: `start refused with ${want}`, ok: false, expected: `refused: ${want}`, actual: 'the run started: the definition keeps the policy' }] };
  }
  const codes = refusal.diagnostics.map((d) => d.code);
  if (want === undefined) return { kind: 'end', assertions: [{ what: 'run started', ok: false, expected: 'the run starts', actual: `refused: ${refusal.message}` }] };
  return { kind: 'end', assertions: [{ what: `start refused with ${want}`, ok: codes.includes(want), expected: `refused: ${want}`, actual: `refused (${[...new Set(codes)].join(', ')}): ${refusal.message}` }] };
}
