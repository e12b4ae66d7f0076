// More than one run in a scenario: runs started at virtual times (to test limits.maxParallelRuns
// queues and resource pools shared across runs), expectations per named run, and assertions that
// only make sense across runs (how many ran at once, the order they got a run slot).
import { z } from 'zod';
import { CaseOutcome, PlainOutcome } from './scripted-outcome-schema.ts';

const Ms = z.number().int().nonnegative();

/** The name of the scenario's own run (its top-level `input`, `expect` and actions). */
export const MAIN_RUN = 'main';

export const RunName = z.string().min(1).regex(/^[A-Za-z0-9_.-]+$/, 'a run name is letters, digits, "_", "." or "-"');

export const ScenarioRun = z.strictObject({
  name: RunName.describe('how actions (`run`) and `expect.runs` refer to this run'),
  atMs: Ms.optional().describe('virtual time after the scenario starts (default 0, after the scenario\'s own run)'),
  input: z.unknown().optional(),
  priority: z.number().int().optional().describe('higher runs leave a limits.maxParallelRuns queue first'),
  budget: z.number().nonnegative().optional().describe("the run's start budget (as weft run --budget gives it; docs/budgets.md)"),
  refused: z.boolean().optional().describe('the engine must refuse to start this run (a daily budget is spent and the policy says whenOver "refuse")'),
  steps: z.record(z.string(), z.array(z.union([PlainOutcome, CaseOutcome])).min(1)).optional().describe("this run's scripted outcomes for the steps it names (the others follow the scenario's)"),
});
export type ScenarioRun = z.infer<typeof ScenarioRun>;

/** Assertions across every run of the scenario (its own, `runs` and forks). */
export const AcrossRunsExpect = {
  maxParallelRuns: z.number().int().nonnegative().optional().describe('the most runs that held a run slot (running, not queued) at once'),
  queued: z.array(RunName).optional().describe('the runs that waited for a run slot (limits.maxParallelRuns), in the order they were queued'),
  waitedForBudget: z.array(RunName).optional().describe("the runs that waited for a daily budget (the policy's budgets), in the order they first waited"),
  runOrder: z.array(RunName).optional().describe('the named runs in the order they got a run slot (started, or left the queue)'),
  maxInUse: z.record(z.string(), z.number().int().nonnegative()).optional().describe('per resource: the most attempts of its steps running at once, across runs'),
};
