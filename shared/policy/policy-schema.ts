// Workspace policies (weft.policy.json, docs/policies.md): rules a workspace writes once and the
// validator, the engine, the editor and the CLI all enforce. The zod schema is the single source
// of truth; docs/weft-policy-v1.schema.json is generated from it. Every rule has an `id`, so a
// diagnostic or a refusal names the rule it applies.
import { z } from 'zod';
import { EFFECTS, OPERATOR_ACTIONS, STEP_KINDS } from '../definition/names.ts';

/** The file a workspace's policy is read from, at the workspace's root. */
export const POLICY_FILE = 'weft.policy.json';

export const POLICY_FORMAT = 'weft-policy/v1';

const RuleId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'a rule id is a slug such as "payments-approved"')
  .describe('names the rule in diagnostics and refusals');

/**
 * Which steps a rule applies to. A step matches when every field given matches (AND); within a
 * field, any value listed (OR). No selector: every step.
 *
 * @example
 * { effects: ['external'], tags: ['payment'] } // external steps tagged payment
 */
export const StepSelector = z.strictObject({
  steps: z.array(z.string().min(1)).min(1).optional().describe('step ids'),
  kinds: z.array(z.enum(STEP_KINDS)).min(1).optional(),
  effects: z.array(z.enum(EFFECTS)).min(1).optional().describe('a step without `effect` is "none"'),
  tags: z.array(z.string().min(1)).min(1).optional().describe('a step with any of these tags'),
  workflows: z.array(z.string().min(1)).min(1).optional().describe('workflow ids'),
});
export type StepSelector = z.infer<typeof StepSelector>;

const ruleCommon = {
  id: RuleId,
  description: z.string().optional(),
  select: StepSelector.optional(),
};

/** The engine's own actions a policy can forbid, then the operator's. */
export const AUTOMATIC_ACTIONS = ['automatic_retry', 'compensation_without_approval'] as const;
export const FORBIDDABLE_ACTIONS = [...AUTOMATIC_ACTIONS, ...OPERATOR_ACTIONS.filter((a) => a !== 'pause' && a !== 'resume'), 'revise', 'fork'] as const;
export type ForbiddableAction = (typeof FORBIDDABLE_ACTIONS)[number];

export const ApprovalRule = z.strictObject({
  ...ruleCommon,
}).describe("the selected steps need a person's approval (a human step with task approve) on every path before them");

export const RetryRule = z.strictObject({
  ...ruleCommon,
  maxAttempts: z.number().int().positive().describe('the most attempts (including the first) a selected step may declare'),
});

export const ForbidRule = z.strictObject({
  ...ruleCommon,
  action: z.enum(FORBIDDABLE_ACTIONS),
});

export const EscalationRule = z
  .strictObject({
    ...ruleCommon,
    afterFailures: z.number().int().positive().optional().describe('failed attempts of a step before it escalates'),
    afterMs: z.number().int().positive().optional().describe('time a step may stay unfinished before it escalates'),
    to: z.string().min(1).describe('who is told: a person or a team'),
  })
  .refine((r) => r.afterFailures !== undefined || r.afterMs !== undefined, { message: 'an escalation needs afterFailures or afterMs' });

export const AgentRule = z.strictObject({
  ...ruleCommon,
  providers: z.array(z.string().min(1)).min(1).optional().describe('providers agents may use'),
  models: z.array(z.string().min(1)).min(1).optional().describe('models agents may use'),
});

const Amount = z.number().nonnegative();

export const Budgets = z.strictObject({
  currency: z.string().min(1).optional().describe('default USD; must match the price table'),
  perRun: Amount.optional().describe("the most one run may spend (a definition's limits.budget or the start's budget may set less)"),
  perWorkflowPerDay: z.record(z.string().min(1), Amount).optional().describe('per workflow id ("*" for every other workflow), per day (UTC)'),
  perWorkspacePerDay: Amount.optional().describe('all runs of the workspace, per day (UTC)'),
  whenOver: z.enum(['wait', 'refuse']).optional().describe('a run that would start past a daily budget waits for the next day (default) or is refused'),
});
export type Budgets = z.infer<typeof Budgets>;

/**
 * Who may open a sensitive value (docs/policies.md, "Who opens sensitive values"): each entry an
 * operator's name as actions record it (`--by`, `$WEFT_USER`, `$USER`, the app's name), where `*`
 * stands for any run of characters (`ops-*`). No section: anyone may open, each opening recorded.
 */
export const SensitiveRights = z.strictObject({
  description: z.string().optional(),
  openers: z
    .array(z.string().regex(/\S/, 'an opener is a name such as "alice" or a pattern such as "ops-*"').max(200))
    .describe('the names (or patterns with *) of who may open a sensitive value; [] lets nobody open one'),
});
export type SensitiveRights = z.infer<typeof SensitiveRights>;

export const Policy = z.strictObject({
  $schema: z.string().optional(),
  format: z.literal(POLICY_FORMAT),
  description: z.string().optional(),
  approvals: z.array(ApprovalRule).optional(),
  retries: z.array(RetryRule).optional(),
  forbid: z.array(ForbidRule).optional(),
  escalation: z.array(EscalationRule).optional(),
  agents: z.array(AgentRule).optional(),
  budgets: Budgets.optional(),
  sensitive: SensitiveRights.optional().describe('who may open the sensitive values of runs in this workspace (weft artifact open, the app)'),
});
export type Policy = z.infer<typeof Policy>;

/** A policy as a run holds it: its rules, and the hash of their canonical JSON (what `weft inspect` shows). */
export interface PolicySnapshot {
  hash: string;
  rules: Policy;
}
