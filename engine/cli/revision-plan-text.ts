// How `weft revise` shows a revision plan (shared/api's RevisePlan) to a person: which
// steps run again, which keep their evidence, which wait for a decision, and which are decided
// only when the steps before them have settled; and which steps it bills again (shared/cost/rebill.ts).
import type { RevisePlanStep } from '../../shared/api/input-commands.ts';
import type { RebillEstimate } from '../../shared/cost/rebill-estimate.ts';
import { rebillLine } from '../../shared/cost/rebill.ts';

export function formatRevisionPlan(runId: string, revision: { inputRevision: number; plan: readonly RevisePlanStep[]; rebill?: RebillEstimate | undefined }): string {
  const plan = { inputRevision: revision.inputRevision, steps: revision.plan };
  const ids = (actions: string[]): string[] => plan.steps.filter((p) => actions.includes(p.action)).map((p) => p.stepId);
  const lines = [`revision ${plan.inputRevision} of run ${runId}:`];
  const group = (label: string, list: string[], note = ''): void => {
    if (list.length > 0) lines.push(`  ${label.padEnd(22)}${list.join(', ')}${note}`);
  };
  group('runs again:', ids(['rerun']));
  group('keeps its evidence:', ids(['reuse', 'keep']));
  for (const p of plan.steps.filter((x) => x.action === 'ask')) lines.push(`  ${'waits for a decision:'.padEnd(22)}${p.stepId} (${p.reason})`);
  group('stays unknown:', ids(['carry']), ' (an earlier attempt with the same input has an unknown outcome)');
  group('decided later:', ids(['later']), ' (after the steps before them have settled)');
  if (plan.steps.length === 0) lines.push('  no step has run yet; the run starts over with the new input');
  if (revision.rebill !== undefined) lines.push(`  ${rebillLine(revision.rebill)}`);
  return `${lines.join('\n')}\n`;
}
