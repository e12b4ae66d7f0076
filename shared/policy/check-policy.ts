// A workflow against the workspace policy (docs/policies.md): the findings the validator, the
// engine's start check, `weft validate`, `weft policy check` and the editor show. Pure and fast:
// one graph walk for the approval rules, one pass over the steps for the others. Escalation and
// budgets are what the engine does while a run runs, so they find nothing here; a rule that selects
// no step of this workflow is fine (a workspace's rules are written for all its workflows).
import type { Step, Workflow } from '../definition/workflow-schema.ts';
import { formatPath, type Diagnostic } from '../validator/diagnostic.ts';
import { WorkflowGraph } from '../validator/graph/workflow-graph.ts';
import { ungatedPath, ungatedSteps } from './approval-paths.ts';
import type { Policy, StepSelector } from './policy-schema.ts';
import { selects } from './selects.ts';

/** The codes of the policy findings, each a rule kind broken by a step. */
export const POLICY_CODES = {
  approval: 'policy_approval_missing',
  retries: 'policy_retry_over_cap',
  automaticRetry: 'policy_automatic_retry',
  agent: 'policy_agent_not_allowed',
} as const;

/** The default attempts of a step without `retry` (engine/runtime/retry-policy.ts). */
const DEFAULT_MAX_ATTEMPTS = 1;

const maxAttemptsOf = (step: Step): number => step.retry?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;

/**
 * The findings of `workflow` against `policy`: errors, each naming its rule (`policy "id": …`) and
 * placed on the step (`stepId`, and `path` of the step or of its offending field).
 *
 * @example
 * policyDiagnostics(workflow, { format: 'weft-policy/v1', approvals: [{ id: 'payments-approved', select: { tags: ['payment'] } }] });
 * // [{ code: 'policy_approval_missing', stepId: 'charge_card', path: '$.steps[2]', message: 'policy "payments-approved": …' }]
 */
export function policyDiagnostics(workflow: Workflow, policy: Policy | undefined): Diagnostic[] {
  if (policy === undefined) return [];
  const out: Diagnostic[] = [];
  const at = (i: number, ...more: (string | number)[]): string => formatPath(['steps', i, ...more]);
  const add = (code: string, step: Step, path: string, ruleId: string, message: string, hint: string): void => {
    out.push({ code, severity: 'error', stepId: step.id, path, message: `policy "${ruleId}": ${message}`, hint });
  };
  if ((policy.approvals ?? []).length > 0) approvalFindings(workflow, policy, add);
  workflow.steps.forEach((step, i) => {
    const picks = <R extends { select?: StepSelector | undefined }>(rules: readonly R[] | undefined): R[] =>
      (rules ?? []).filter((r) => selects(r.select, step, workflow.id));
    for (const r of picks(policy.retries)) {
      if (maxAttemptsOf(step) <= r.maxAttempts) continue;
      add(POLICY_CODES.retries, step, at(i, 'retry', 'maxAttempts'), r.id, `step "${step.id}" may make ${maxAttemptsOf(step)} attempts; the policy allows at most ${r.maxAttempts}`, `lower retry.maxAttempts of "${step.id}" to ${r.maxAttempts} or less`);
    }
    for (const r of picks(policy.forbid?.filter((f) => f.action === 'automatic_retry'))) {
      if (maxAttemptsOf(step) <= 1) continue;
      add(POLICY_CODES.automaticRetry, step, at(i, 'retry', 'maxAttempts'), r.id, `step "${step.id}" retries by itself (retry.maxAttempts ${maxAttemptsOf(step)}), and the policy forbids automatic retries of it`, `remove retry from "${step.id}" or set retry.maxAttempts to 1; an operator can still retry it (weft retry)`);
    }
    if (step.kind === 'agent') {
      // The step's own provider and model, and every candidate it may choose at run time (docs/routing.md).
      const uses: { provider: string | undefined; model: string | undefined; where: (string | number)[]; what: string }[] = [
        { provider: step.config.provider, model: step.config.model, where: ['config'], what: `agent "${step.id}"` },
        ...(step.config.candidates ?? []).map((c, k) => ({ provider: c.provider, model: c.model, where: ['config', 'candidates', k], what: `candidate ${k + 1} of agent "${step.id}"` })),
      ];
      for (const r of picks(policy.agents)) {
        for (const u of uses) {
          if (u.provider !== undefined && r.providers !== undefined && !r.providers.includes(u.provider)) {
            add(POLICY_CODES.agent, step, at(i, ...u.where, 'provider'), r.id, `${u.what} uses provider ${u.provider}; the policy allows ${r.providers.join(', ')}`, `set its provider to one of ${r.providers.join(', ')}`);
          } else if (u.provider !== undefined && r.models !== undefined && u.model !== undefined && !r.models.includes(u.model)) {
            add(POLICY_CODES.agent, step, at(i, ...u.where, 'model'), r.id, `${u.what} uses model ${u.model}; the policy allows ${r.models.join(', ')}`, `set its model to one of ${r.models.join(', ')}`);
          }
        }
      }
    }
  });
  return out;
}

/** Every selected step must be behind an approval on every path (approval-paths.ts). */
function approvalFindings(workflow: Workflow, policy: Policy, add: (code: string, step: Step, path: string, ruleId: string, message: string, hint: string) => void): void {
  const graph = new WorkflowGraph(workflow);
  const ungated = ungatedSteps(graph);
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    if (!ungated.has(v)) continue;
    for (const r of policy.approvals ?? []) {
      if (!selects(r.select, step, workflow.id)) continue;
      const path = ungatedPath(graph, ungated, v);
      const how = path.length > 1 ? `: ${path.join(' → ')} passes no approval` : ' (it starts the run)';
      add(
        POLICY_CODES.approval,
        step,
        formatPath(['steps', graph.stepFileIndex[v] ?? v]),
        r.id,
        `step "${step.id}" can be reached without a person's approval${how}`,
        `put a human step with task "approve" before "${step.id}" on every path, and follow only its succeeded (approved) outcome to it`,
      );
    }
  }
}

/** Why a run of `workflow` may not start under `policy`: its policy errors, or undefined when none. */
export interface PolicyStartRefusal {
  message: string;
  diagnostics: Diagnostic[];
}

/**
 * The refusal of a start (a run, a fork, a child run) whose definition breaks the policy it would
 * run under: the message names the workflow, each rule and each step.
 *
 * @example
 * policyStartRefusal(workflow, policy)?.message;
 * // 'workflow "payments" v1 breaks the workspace policy, so it does not start: policy "payments-approved": step "charge" …'
 */
export function policyStartRefusal(workflow: Workflow, policy: Policy | undefined): PolicyStartRefusal | undefined {
  const diagnostics = policyDiagnostics(workflow, policy).filter((d) => d.severity === 'error');
  if (diagnostics.length === 0) return undefined;
  const shown = diagnostics.slice(0, 5).map((d) => d.message).join('; ');
  const more = diagnostics.length > 5 ? `; and ${diagnostics.length - 5} more (weft policy check lists them)` : '';
  return { diagnostics, message: `workflow "${workflow.id}" v${workflow.version} breaks the workspace policy, so it does not start: ${shown}${more}; fix the definition (weft validate shows where) or the policy` };
}
