// What makes a scenario fail before or beside its assertions: steps and resources named by its
// runs, forks and attempt assertions that the workflow does not have (a script may also name the
// read of a step's revalidate check, `STEP.revalidate`), and scripted `cases` that matched nothing
// a call was given.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { readName } from '../../shared/run/revalidation-fetched.ts';
import type { Scenario } from '../../shared/scenario/scenario-schema.ts';
import { MAIN_RUN } from '../../shared/scenario/scenario-runs-schema.ts';
import type { AssertionResult } from './assertion-result.ts';
import type { ScenarioRuns } from './scenario-runs.ts';
import type { ScriptProblem } from './scripted-executor.ts';

/**
 * Checks a scenario's scripted `steps` keys: a step id, or `ID.revalidate` for the read the
 * revalidate check of step ID runs first (`revalidate.fetch`, docs/scenarios.md).
 *
 * @example scriptKeyProblems(workflow, 'steps', ['quote', 'approve.revalidate'])
 */
export function scriptKeyProblems(workflow: Workflow, where: string, keys: readonly string[]): AssertionResult[] {
  const reads = workflow.steps.filter((x) => x.revalidate?.fetch !== undefined).map((x) => readName(x.id));
  const names = [...workflow.steps.map((x) => x.id), ...reads];
  return keys.filter((k) => !names.includes(k)).map((k) => ({
    what: `${where} names step "${k}"`,
    ok: false,
    expected: `a step of "${workflow.id}"${reads.length === 0 ? '' : ` (or ${readName('STEP')}, the read of a revalidate check)`}: ${names.join(', ')}`,
    actual: 'no such step',
  }));
}

export function unknownRunReferences(workflow: Workflow, scenario: Scenario): AssertionResult[] {
  const steps = new Set(workflow.steps.map((x) => x.id));
  const resources = new Set(workflow.steps.flatMap((x) => (x.resource === undefined ? [] : [x.resource])));
  const out: AssertionResult[] = [];
  const step = (where: string, id: string | undefined): void => {
    if (id !== undefined && !steps.has(id)) out.push({ what: `${where} names step "${id}"`, ok: false, expected: `a step of "${workflow.id}": ${[...steps].join(', ')}`, actual: 'no such step' });
  };
  for (const [k, op] of (scenario.operator ?? []).entries()) {
    step(`operator.${k}.from`, op.from);
    out.push(...scriptKeyProblems(workflow, `operator.${k}.steps`, Object.keys(op.steps ?? {})));
  }
  for (const r of scenario.runs ?? []) out.push(...scriptKeyProblems(workflow, `runs.${r.name}.steps`, Object.keys(r.steps ?? {})));
  const expects = [[MAIN_RUN, scenario.expect] as const, ...Object.entries(scenario.expect.runs ?? {})];
  for (const [name, x] of expects) for (const a of x.attempts ?? []) step(name === MAIN_RUN ? 'expect.attempts' : `expect.runs.${name}.attempts`, a.step);
  for (const r of Object.keys(scenario.expect.maxInUse ?? {})) {
    if (!resources.has(r)) out.push({ what: `expect.maxInUse names resource "${r}"`, ok: false, expected: resources.size === 0 ? `"${workflow.id}" has no step with a resource` : `a resource of "${workflow.id}": ${[...resources].join(', ')}`, actual: 'no such resource' });
  }
  return out;
}

export function scriptProblems(problems: readonly ScriptProblem[], runs: ScenarioRuns): AssertionResult[] {
  return problems.map((p) => {
    const run = runs.nameOf(p.runId);
    return {
      what: `scripted outcome of "${p.stepId}" for call ${p.call}${run === MAIN_RUN ? '' : ` of run "${run}"`}`,
      ok: false,
      expected: p.error === undefined ? 'a case whose "when" is true for what the call was given (or an "else")' : 'cases whose "when" can be evaluated',
      actual: p.error ?? p.given,
    };
  });
}
