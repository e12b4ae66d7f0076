// Checks inside one scenario that the schema alone cannot express: run names are unique and
// every `run` a scenario names (decisions, operator actions, revisions) exists; a fork says
// where it starts and what its run is called.
// Each problem is a schema issue with its JSON path, so `weft test` refuses the file (exit 2).
import type { z } from 'zod';
import { MAIN_RUN } from './scenario-runs-schema.ts';

interface Named {
  run?: string | undefined;
}
interface Action extends Named {
  action: string;
  from?: string | undefined;
  name?: string | undefined;
  steps?: unknown;
}
interface ScenarioShape {
  runs?: { name: string }[] | undefined;
  decisions?: Named[] | undefined;
  operator?: Action[] | undefined;
  revise?: Named[] | undefined;
  expect: { runs?: Record<string, unknown> | undefined; queued?: string[] | undefined; waitedForBudget?: string[] | undefined; runOrder?: string[] | undefined };
}

export function checkScenarioReferences(s: ScenarioShape, ctx: z.core.$RefinementCtx): void {
  const issue = (path: (string | number)[], message: string): void => {
    ctx.addIssue({ code: 'custom', path, message });
  };
  const names = new Set([MAIN_RUN]);
  const declare = (name: string, path: (string | number)[]): void => {
    if (names.has(name)) issue(path, `the run name "${name}" is taken${name === MAIN_RUN ? ' (it is the scenario\'s own run)' : ''}; give each run its own name`);
    names.add(name);
  };
  for (const [k, r] of (s.runs ?? []).entries()) declare(r.name, ['runs', k, 'name']);
  for (const [k, op] of (s.operator ?? []).entries()) {
    if (op.action === 'fork') {
      if (op.from === undefined) issue(['operator', k, 'from'], 'a fork needs "from": the first step to run again');
      if (op.name === undefined) issue(['operator', k, 'name'], 'a fork needs "name": how expect.runs and later actions refer to the new run');
      else declare(op.name, ['operator', k, 'name']);
      continue;
    }
    for (const key of ['from', 'name', 'steps'] as const) {
      if (op[key] !== undefined) issue(['operator', k, key], `"${key}" is for fork only, not ${op.action}`);
    }
  }
  const known = (name: string | undefined, path: (string | number)[]): void => {
    if (name !== undefined && !names.has(name)) issue(path, `no run named "${name}" in this scenario; its runs are ${[...names].join(', ')}`);
  };
  for (const [k, d] of (s.decisions ?? []).entries()) known(d.run, ['decisions', k, 'run']);
  for (const [k, op] of (s.operator ?? []).entries()) known(op.run, ['operator', k, 'run']);
  for (const [k, r] of (s.revise ?? []).entries()) known(r.run, ['revise', k, 'run']);
  for (const name of Object.keys(s.expect.runs ?? {})) known(name, ['expect', 'runs', name]);
  for (const [k, name] of (s.expect.queued ?? []).entries()) known(name, ['expect', 'queued', k]);
  for (const [k, name] of (s.expect.waitedForBudget ?? []).entries()) known(name, ['expect', 'waitedForBudget', k]);
  for (const [k, name] of (s.expect.runOrder ?? []).entries()) known(name, ['expect', 'runOrder', k]);
}
