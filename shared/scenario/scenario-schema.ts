// Scenario files (NAME.scenarios.json beside NAME.weft.json): a workflow's tests. Each scenario
// gives the run input, scripted outcomes per step and attempt, people's decisions, events,
// operator actions, forks and input revisions at virtual times, more runs, an optional engine
// crash, and what must hold at the end. Time is virtual.
import { z } from 'zod';
import { EVENT_TYPES } from '../events/run-event.ts';
import { OPERATOR_ACTIONS, RUN_STATES } from '../definition/names.ts';
import { ScenarioActivationExpect, ScenarioAttemptExpect } from './scenario-attempt-expect.ts';
import { CaseOutcome, PlainOutcome } from './scripted-outcome-schema.ts';
import { AcrossRunsExpect, RunName, ScenarioRun } from './scenario-runs-schema.ts';
import { checkScenarioReferences } from './scenario-references.ts';
import { Policy } from '../policy/policy-schema.ts';
import { PriceTable } from '../cost/price-table.ts';

const Ms = z.number().int().nonnegative();

export const ScriptedOutcome = z.union([PlainOutcome, CaseOutcome]);
const Script = z.record(z.string(), z.array(ScriptedOutcome).min(1));

/** What a scenario can do at a virtual time: the operator's actions, and `fork` (as `weft fork` does). */
export const SCENARIO_ACTIONS = [...OPERATOR_ACTIONS, 'fork'] as const;

export const ScenarioDecision = z.strictObject({
  step: z.string().min(1),
  atMs: Ms.describe('virtual time after the run starts'),
  decision: z.enum(['approve', 'reject']),
  data: z.unknown().optional(),
  choice: z.string().optional(),
  reason: z.string().optional(),
  by: z.string().optional(),
  refused: z.boolean().optional().describe('the engine must refuse this decision (say, a second answer to a task already decided); nothing changes'),
  run: RunName.optional().describe("the named run whose task it answers (default: the scenario's own run)"),
});

export const ScenarioEvent = z.strictObject({
  atMs: Ms,
  name: z.string().min(1),
  key: z.string(),
  id: z.string().optional(),
  data: z.unknown().optional(),
  expect: z.enum(['delivered', 'kept', 'duplicate']).optional().describe('what the engine must do with it: deliver it to a waiting step, keep it for a step that asks later, or ignore it as a duplicate'),
});

export const ScenarioOperatorAction = z.strictObject({
  atMs: Ms.describe('virtual time after the run starts'),
  action: z.enum(SCENARIO_ACTIONS),
  run: RunName.optional().describe("the named run it acts on (default: the scenario's own run); fork: the run forked"),
  step: z.string().min(1).optional().describe('the step, for retry, skip, resolve and keep'),
  output: z.unknown().optional().describe('skip: the output the step settles with'),
  input: z.unknown().optional().describe("retry: run the new activation with this input; fork: the new run's input (default: the forked run's)"),
  from: z.string().min(1).optional().describe('fork: the first step to run again'),
  name: RunName.optional().describe('fork: the name of the new run, for expect.runs and later actions'),
  steps: Script.optional().describe("fork: scripted outcomes for the new run's steps it names (the others follow the scenario's)"),
  as: z.enum(['succeeded', 'failed']).optional().describe('resolve: what a person found out'),
  evidence: z.unknown().optional().describe('resolve: what they found'),
  reason: z.string().optional(),
  by: z.string().optional(),
  refused: z.boolean().optional().describe('the engine must refuse this action (the run or step is not in a state that permits it); nothing changes'),
});

export const ScenarioRevision = z.strictObject({
  atMs: Ms.describe('virtual time after the run starts'),
  input: z.unknown().describe('the new run input (checked against the input schema, as weft revise does)'),
  run: RunName.optional().describe("the named run it revises (of `runs`, or a fork; default: the scenario's own run)"),
  refused: z.boolean().optional().describe('the engine must refuse this revision (say, while an attempt is running); nothing changes'),
});

export const ScenarioExpect = z.strictObject({
  state: z.enum(RUN_STATES).optional(),
  steps: z
    .record(
      z.string(),
      z.strictObject({
        state: z.string().optional(),
        outcome: z.string().optional().describe('the outcome of its latest settlement: succeeded, failed, unknown, timed_out, rejected, expired, budget_exceeded, stale, partial, skipped, cancelled'),
        output: z.unknown().optional(),
        attempts: z.number().int().nonnegative().optional(),
        activations: z.array(ScenarioActivationExpect).optional().describe('each activation in order (as many as there were): how it settled and its output'),
        passedOver: z.boolean().optional().describe('whether the step, settled, is not on the path any more (a later pass or an operator re-decision took another way): its state is still how its last activation settled'),
        cost: z.number().nonnegative().optional().describe("what the step's attempts cost in all (docs/cost.md), as `weft inspect` shows it"),
      }),
    )
    .optional(),
  order: z.array(z.string()).optional().describe('step ids that must have started their first attempt in this order'),
  path: z.array(z.string()).optional().describe('edge ids that must have been taken'),
  notTaken: z.array(z.string()).optional().describe('edge ids that must never have been taken'),
  neverRan: z.array(z.string()).optional().describe('step ids that must never have started an attempt'),
  attempts: z.array(ScenarioAttemptExpect).optional().describe('single attempts: their resolved input, retry variant, error code, evidence and start time'),
  cost: z.number().nonnegative().optional().describe("what the run's attempts cost in all (docs/cost.md)"),
  escalated: z
    .array(z.strictObject({ step: z.string().min(1), rule: z.string().min(1), to: z.string().min(1).optional(), atMs: Ms.optional().describe('virtual time after the run starts') }))
    .optional()
    .describe("every escalation by the policy's escalation rules, in order ([] for none): the step, the rule, who was told, when"),
});

export type ScenarioExpect = z.infer<typeof ScenarioExpect>;

/** The scenario's `expect`: its own run, the other named runs, and assertions across runs. */
export const ScenarioExpectAll = ScenarioExpect.extend({
  refused: z
    .string()
    .regex(/^policy_[a-z_]+$/, 'a policy finding code such as "policy_approval_missing"')
    .optional()
    .describe("the workspace policy refuses to start the scenario's run, with this finding (docs/policies.md); nothing else is checked"),
  runs: z.record(RunName, ScenarioExpect).optional().describe('per named run (of `runs`, or a fork), what must hold at the end'),
  ...AcrossRunsExpect,
});
export type ScenarioExpectAll = z.infer<typeof ScenarioExpectAll>;

export const Scenario = z.strictObject({
  name: z.string().min(1),
  input: z.unknown().optional(),
  seed: z.number().int().optional(),
  steps: Script.optional(),
  decisions: z.array(ScenarioDecision).optional(),
  events: z.array(ScenarioEvent).optional(),
  operator: z.array(ScenarioOperatorAction).optional().describe("an operator's actions (weft pause, resume, cancel, retry, skip, resolve, keep) and forks at virtual times"),
  revise: z.array(ScenarioRevision).optional().describe('input revisions (weft revise) at virtual times'),
  crash: z.strictObject({ afterEvent: z.enum(EVENT_TYPES as [string, ...string[]]), step: z.string().optional(), nth: z.number().int().positive().optional() }).optional(),
  budget: z.number().nonnegative().optional().describe("the scenario's own run's start budget (as weft run --budget gives it; docs/budgets.md)"),
  runs: z.array(ScenarioRun).optional().describe('more runs of the workflow, started at virtual times (the scripted outcomes are counted per run)'),
  policy: Policy.optional().describe("the workspace policy the scenario's runs start under (instead of the file's `policy`, or weft.policy.json beside the workflow)"),
  prices: PriceTable.optional().describe('the price table that prices scripted `usage` (docs/cost.md); default: weft.prices.json beside the workflow'),
  expect: ScenarioExpectAll,
}).superRefine(checkScenarioReferences);
export type Scenario = z.infer<typeof Scenario>;

export const ScenarioFile = z.strictObject({
  $schema: z.string().optional(),
  workflow: z.string().optional().describe('the workflow file, when not NAME.weft.json beside this file'),
  policy: Policy.optional().describe('the workspace policy every scenario of the file runs under, unless it gives its own (default: weft.policy.json beside the workflow)'),
  scenarios: z.array(Scenario).min(1),
});
export type ScenarioFile = z.infer<typeof ScenarioFile>;
