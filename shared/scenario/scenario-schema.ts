// Scenario files (NAME.scenarios.json beside NAME.weft.json): a workflow's tests. Each scenario
// gives the run input, scripted outcomes per step and attempt, people's decisions, events,
// operator actions and input revisions at virtual times, an optional engine crash, and what must hold at the end. Time is virtual.
import { z } from 'zod';
import { EVENT_TYPES } from '../events/run-event.ts';
import { OPERATOR_ACTIONS, RUN_STATES } from '../definition/names.ts';

const Ms = z.number().int().nonnegative();

export const ScriptedOutcome = z.union([
  z.strictObject({ succeed: z.unknown(), takeMs: Ms.optional() }),
  z.strictObject({ fail: z.string().min(1), message: z.string().optional(), retryable: z.boolean().optional(), takeMs: Ms.optional() }),
  z.strictObject({ unknown: z.string().min(1), takeMs: Ms.optional() }),
  z.strictObject({ hang: z.literal(true) }),
]);

export const ScenarioDecision = z.strictObject({
  step: z.string().min(1),
  atMs: Ms.describe('virtual time after the run starts'),
  decision: z.enum(['approve', 'reject']),
  data: z.unknown().optional(),
  choice: z.string().optional(),
  reason: z.string().optional(),
  by: z.string().optional(),
  refused: z.boolean().optional().describe('the engine must refuse this decision (say, a second answer to a task already decided); nothing changes'),
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
  action: z.enum(OPERATOR_ACTIONS),
  step: z.string().min(1).optional().describe('the step, for retry, skip and resolve'),
  output: z.unknown().optional().describe('skip: the output the step settles with'),
  input: z.unknown().optional().describe('retry: run the new activation with this input'),
  as: z.enum(['succeeded', 'failed']).optional().describe('resolve: what a person found out'),
  evidence: z.unknown().optional().describe('resolve: what they found'),
  reason: z.string().optional(),
  by: z.string().optional(),
  refused: z.boolean().optional().describe('the engine must refuse this action (the run or step is not in a state that permits it); nothing changes'),
});

export const ScenarioRevision = z.strictObject({
  atMs: Ms.describe('virtual time after the run starts'),
  input: z.unknown().describe('the new run input (checked against the input schema, as weft revise does)'),
  refused: z.boolean().optional().describe('the engine must refuse this revision (say, while an attempt is running); nothing changes'),
});

export const ScenarioExpect = z.strictObject({
  state: z.enum(RUN_STATES).optional(),
  steps: z
    .record(
      z.string(),
      z.strictObject({
        state: z.string().optional(),
        outcome: z.string().optional().describe('the outcome of its latest settlement: succeeded, failed, unknown, timed_out, rejected, expired, skipped, cancelled'),
        output: z.unknown().optional(),
        attempts: z.number().int().nonnegative().optional(),
      }),
    )
    .optional(),
  order: z.array(z.string()).optional().describe('step ids that must have started their first attempt in this order'),
  path: z.array(z.string()).optional().describe('edge ids that must have been taken'),
  notTaken: z.array(z.string()).optional().describe('edge ids that must never have been taken'),
  neverRan: z.array(z.string()).optional().describe('step ids that must never have started an attempt'),
});

export const Scenario = z.strictObject({
  name: z.string().min(1),
  input: z.unknown().optional(),
  seed: z.number().int().optional(),
  steps: z.record(z.string(), z.array(ScriptedOutcome).min(1)).optional(),
  decisions: z.array(ScenarioDecision).optional(),
  events: z.array(ScenarioEvent).optional(),
  operator: z.array(ScenarioOperatorAction).optional().describe("an operator's actions (weft pause, resume, cancel, retry, skip, resolve) at virtual times"),
  revise: z.array(ScenarioRevision).optional().describe('input revisions (weft revise) at virtual times'),
  crash: z.strictObject({ afterEvent: z.enum(EVENT_TYPES as [string, ...string[]]), step: z.string().optional(), nth: z.number().int().positive().optional() }).optional(),
  expect: ScenarioExpect,
});
export type Scenario = z.infer<typeof Scenario>;

export const ScenarioFile = z.strictObject({
  $schema: z.string().optional(),
  workflow: z.string().optional().describe('the workflow file, when not NAME.weft.json beside this file'),
  scenarios: z.array(Scenario).min(1),
});
export type ScenarioFile = z.infer<typeof ScenarioFile>;
