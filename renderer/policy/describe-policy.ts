// A policy in words, rule by rule: what the app's policy page lists beside the file, and what
// `weft policy show` prints. One sentence per rule, led by what it applies to, so a person reads
// what the workspace enforces without reading its JSON.
import type { Budgets, Policy, StepSelector } from '../../shared/policy/policy-schema.ts';
import { formatCost } from '../../shared/cost/run-cost.ts';

/** The section of the policy a rule belongs to, in the order the page lists them. */
export type PolicySection = 'approvals' | 'retries' | 'forbid' | 'escalation' | 'agents' | 'budgets' | 'sensitive';

export interface DescribedRule {
  section: PolicySection;
  /** The rule's id (`budgets` for the budgets and `sensitive.openers` for who opens sensitive values, which have none). */
  id: string;
  /** What it says, in one sentence. */
  text: string;
  description?: string;
}

export const SECTION_TITLES: Record<PolicySection, string> = {
  approvals: 'Approvals',
  retries: 'Retry caps',
  forbid: 'Forbidden actions',
  escalation: 'Escalation',
  agents: 'Agents',
  budgets: 'Budgets',
  sensitive: 'Sensitive values',
};

/**
 * Every rule of a policy in words, in section order.
 *
 * @example
 * describePolicy({ format: 'weft-policy/v1', retries: [{ id: 'few', select: { effects: ['external'] }, maxAttempts: 2 }] })
 * // [{ section: 'retries', id: 'few', text: 'External steps may make at most 2 attempts.' }]
 */
export function describePolicy(policy: Policy): DescribedRule[] {
  const out: DescribedRule[] = [];
  const add = (section: PolicySection, rule: { id: string; description?: string | undefined }, text: string): void => {
    out.push({ section, id: rule.id, text, ...(rule.description === undefined ? {} : { description: rule.description }) });
  };
  for (const r of policy.approvals ?? []) add('approvals', r, `${capital(selectorWords(r.select))} need a person's approval on every path before them.`);
  for (const r of policy.retries ?? []) add('retries', r, `${capital(selectorWords(r.select))} may make at most ${plural(r.maxAttempts, 'attempt')}.`);
  for (const r of policy.forbid ?? []) add('forbid', r, forbidWords(r.action, r.select));
  for (const r of policy.escalation ?? []) {
    const after = [r.afterFailures === undefined ? '' : `after ${plural(r.afterFailures, 'failed attempt')}`, r.afterMs === undefined ? '' : `after ${durationWords(r.afterMs)} unfinished`].filter((x) => x !== '').join(' or ');
    add('escalation', r, `${capital(selectorWords(r.select))} escalate to ${r.to} ${after}.`);
  }
  for (const r of policy.agents ?? []) {
    const allowed = [r.providers === undefined ? '' : `providers ${list(r.providers)}`, r.models === undefined ? '' : `models ${list(r.models)}`].filter((x) => x !== '').join(' and ');
    const which = r.select === undefined ? 'Agent steps' : capital(selectorWords({ ...r.select, kinds: ['agent'] }));
    add('agents', r, allowed === '' ? `${which} may use any provider.` : `${which} may use only ${allowed}.`);
  }
  if (policy.budgets !== undefined) add('budgets', { id: 'budgets' }, budgetWords(policy.budgets));
  if (policy.sensitive !== undefined) {
    const { openers, description } = policy.sensitive;
    add('sensitive', { id: 'sensitive.openers', description }, openers.length === 0 ? 'Nobody may open a sensitive value.' : `Only ${list(openers)} may open a sensitive value; each opening is recorded.`);
  }
  return out;
}

/**
 * What a selector picks, in words: `external steps tagged payment`.
 *
 * @example
 * selectorWords(undefined) // 'every step'
 */
export function selectorWords(s: StepSelector | undefined): string {
  if (s === undefined || Object.keys(s).length === 0) return 'every step';
  const effects = s.effects === undefined ? '' : `${s.effects.join(' or ')} `;
  const kinds = s.kinds === undefined ? 'steps' : `${s.kinds.join(' or ')} steps`;
  const ids = s.steps === undefined ? '' : ` ${s.steps.join(', ')}`;
  const tags = s.tags === undefined ? '' : ` tagged ${s.tags.join(' or ')}`;
  const workflows = s.workflows === undefined ? '' : ` of ${s.workflows.join(' or ')}`;
  return `${effects}${kinds}${ids}${tags}${workflows}`;
}

function forbidWords(action: string, select: StepSelector | undefined): string {
  const what = selectorWords(select);
  switch (action) {
    case 'automatic_retry':
      return `The engine never retries ${what} by itself.`;
    case 'compensation_without_approval':
      return `Compensating ${what} waits for a person's approval.`;
    case 'revise':
    case 'fork':
      return `Operators may not ${action} runs${select === undefined ? '' : ` with ${what}`}.`;
    default:
      return `Operators may not ${action} ${what}.`;
  }
}

function budgetWords(b: Budgets): string {
  const cur = b.currency ?? 'USD';
  const parts: string[] = [];
  if (b.perRun !== undefined) parts.push(`each run up to ${formatCost(b.perRun, cur)}`);
  for (const [wf, amount] of Object.entries(b.perWorkflowPerDay ?? {})) parts.push(wf === '*' ? `every other workflow ${formatCost(amount, cur)} a day` : `${wf} ${formatCost(amount, cur)} a day`);
  if (b.perWorkspacePerDay !== undefined) parts.push(`the workspace ${formatCost(b.perWorkspacePerDay, cur)} a day`);
  const over = b.whenOver === 'refuse' ? 'a run that would start past a daily budget is refused' : 'a run that would start past a daily budget waits for the next day';
  return parts.length === 0 ? `Budgets in ${cur}; ${over}.` : `${capital(parts.join('; '))}; ${over}.`;
}

function durationWords(ms: number): string {
  if (ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  if (ms % 1000 === 0) return plural(ms / 1000, 'second');
  return `${ms} ms`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const list = (xs: readonly string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
