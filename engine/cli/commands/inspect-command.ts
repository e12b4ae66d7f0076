// `weft inspect RUN [--store URL|PATH | --db PATH] [--json]`: the run's restart record.
import type { RestartRecord } from '../../service/run-reader.ts';
import type { RunCost } from '../../../shared/cost/run-cost.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { budgetName } from '../../../shared/run/run-budget.ts';
import { fetchedIn, fetchedWords } from '../../../shared/run/revalidation-fetched.ts';
import { formatCost } from '../../../shared/cost/run-cost.ts';
import type { PolicySnapshot } from '../../../shared/policy/policy-schema.ts';
import type { Command } from '../command.ts';
import { runCostLine, stepCostText } from '../cost-text.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

export const inspectCommand: Command = {
  name: 'inspect',
  summary: "show a run's restart record: each step's state, evidence and next action",
  usage: 'weft inspect RUN [--store URL|PATH | --db PATH] [--json]',
  help: `Shows, for each step of RUN (an id or a unique prefix): its state, its evidence and what
that evidence covers (input hash, definition version, input revision), its attempts, the
candidate each attempt of an agent step with candidates ran on and why (docs/routing.md), what
it cost, and the next permitted action with its reason; and what the run cost in all. The head
names the workspace policy the run started under (its hash and its rules' ids; docs/policies.md).

${storeFlagsHelp(11)}
  --json   print the run's RunDetail (docs/api.md): the restart record
           {"run":{...},"steps":[{"id","state","activation","attempts":[...],"evidence","next"}]}
           plus, per step, its permittedActions [{action, why}] and each attempt's input,
           output, evidence, meta, route and epoch-ms times; the run's tasks, children and
           edges; and its cost {"total","currency","inputTokens","outputTokens","unpriced",
           "steps":{ID:{"total","attempts","inputTokens","outputTokens","unpriced"}}}
           (docs/cost.md)`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    return withReadOnlyStore('inspect', io, values, async (reader) => {
      const detail = reader.runDetail(run);
      io.stdout.write(values.json === true ? `${JSON.stringify(detail)}\n` : formatRecord(detail));
      return EXIT_OK;
    });
  },
};

/** The policy the run started under: its hash and its rules' ids, by kind. */
function policyLine(policy: PolicySnapshot | undefined): string {
  if (policy === undefined) return 'Policy: none (the workspace had no weft.policy.json when the run started)';
  const { rules } = policy;
  const kinds = (['approvals', 'retries', 'forbid', 'escalation', 'agents'] as const)
    .filter((k) => (rules[k] ?? []).length > 0)
    .map((k) => `${k} ${(rules[k] ?? []).map((r) => r.id).join(', ')}`);
  if (rules.budgets !== undefined) kinds.push('budgets');
  return `Policy: ${policy.hash} (${kinds.join('; ') || 'no rules'})`;
}

/** The record as a person reads it, in the shape of the A17 example of the reference text; a RunDetail adds its cost, budget and routes. */
export function formatRecord(r: (RestartRecord | RunDetail) & { cost?: RunCost; run: Partial<Pick<RunDetail['run'], 'budget' | 'budgetWait'>> & { policy?: PolicySnapshot | undefined } }): string {
  const debug = r.run.debug;
  const lines = [
    `Run ${r.run.id}: ${r.run.workflowId} v${r.run.version}, ${r.run.state}${debug === undefined ? '' : ' (debug run)'}`,
    `Input revision: ${r.run.inputRevision}`,
  ];
  lines.push(policyLine(r.run.policy));
  for (const x of r.run.escalations ?? []) lines.push(`Escalated: "${x.stepId}" (activation ${x.activation}) to ${x.to} by policy "${x.rule}" at ${x.at}: ${x.reason}`);
  const costLine = r.cost === undefined ? undefined : runCostLine(r.cost);
  if (costLine !== undefined) lines.push(costLine);
  const { budget, budgetWait } = r.run;
  if (budget !== undefined) lines.push(`Budget: ${formatCost(budget.spent, budget.currency)} spent of ${budgetName(budget)}`);
  if (budgetWait !== undefined) lines.push(`Waiting for budget until ${new Date(budgetWait.untilMs).toISOString()}: ${budgetWait.reason.replace(/^waiting for budget: /, '')}`);
  for (const n of r.run.notes ?? []) lines.push(`Note${n.stepId === null ? '' : ` on "${n.stepId}"`} by ${n.by} at ${n.at}: ${n.text.replace(/\s+/g, ' ')}`);
  for (const m of r.run.migrations ?? []) lines.push(`Migrated: v${m.fromVersion} → v${m.toVersion} at event ${m.seq} (${m.at}) by ${m.by}`);
  if (debug !== undefined) {
    const paused = debug.pausedAt === null ? '' : `; paused at "${debug.pausedAt.step}" (activation ${debug.pausedAt.activation})`;
    lines.push(`Debug: breakpoints ${debug.breakpoints.join(', ') || 'none'}; pinned ${debug.pins.join(', ') || 'none'}${paused}${debug.stepping ? '; pauses before the next start (weft step)' : ''}`);
  }
  const width = Math.max(...r.steps.map((s) => s.id.length));
  for (const s of r.steps) {
    const detail: string[] = [];
    if (s.evidence) detail.push(`${s.evidence.pinned === true ? 'pinned ' : ''}evidence ${s.evidence.id} covers input ${s.evidence.covers.inputHash} under v${s.evidence.covers.definitionVersion}, revision ${s.evidence.covers.inputRevision}${s.evidence.offsetBy === undefined ? '' : ` (its effect was undone by ${s.evidence.offsetBy})`}`);
    const cost = r.cost?.steps[s.id];
    if (cost !== undefined && r.cost !== undefined) detail.push(stepCostText(cost, r.cost.currency));
    const last = s.attempts[s.attempts.length - 1];
    if (last && s.state !== 'succeeded') detail.push(`attempt ${last.id} ${last.state}${last.error ? ` (${last.error.code})` : ''}, input ${last.inputHash}`);
    // A settled step that is not on the path any more, or whose settlement is being decided again, says so beside its state.
    const state = s.passedOver !== undefined ? `${s.state}, passed over` : s.superseded !== undefined ? `${s.state}, superseded` : s.state;
    lines.push(`${s.id.padEnd(width)}  ${state}${detail.length > 0 ? `; ${detail.join('; ')}` : ''}`);
    // An agent step with candidates: the executor each attempt ran on, and why (docs/routing.md).
    for (const a of s.attempts) {
      if (!('route' in a) || a.route === undefined) continue;
      lines.push(`${''.padEnd(width)}  attempt ${a.id} ran on ${a.route.chosen ?? 'no candidate'}: ${a.route.reason}`);
    }
    // A waiting step's latest revalidate check (docs/long-running.md): trigger, verdict and why.
    if (s.revalidation !== undefined) {
      lines.push(`${''.padEnd(width)}  revalidated after ${s.revalidation.trigger}: ${s.revalidation.verdict}; ${s.revalidation.why}`);
      const fetched = fetchedIn(s.revalidation.inputs);
      if (fetched !== undefined) lines.push(`${''.padEnd(width)}  the check read again first: ${fetchedWords(fetched)}`);
    }
    lines.push(`${''.padEnd(width)}  next: ${s.next}`);
  }
  return `${lines.join('\n')}\n`;
}
