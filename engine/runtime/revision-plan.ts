// What a revision will do, before it does it (weft revise prints it; --dry-run prints only it).
// It walks the steps the current pass reached, in graph order, resolving each step's input under
// the new run input exactly as the scheduler will, and asks `decideRevision` (the scheduler's own
// decision) what happens to it. Pure steps (transform, router, join, end) are computed, so a step
// that reads them is planned too; a step after one that does work again, or waits for a person,
// is decided only when that one has settled ("later"). The plan assumes the run takes the same
// path as in the current pass. It reads the model and writes nothing.
import type { RevisePlanAction } from '../../shared/api/input-commands.ts';
import type { StepKind } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import { ACTIVATION, evaluate, stepReads, type RunContext } from './expressions.ts';
import { coverageHash } from './input-coverage.ts';
import { runInlineStep } from './inline-steps.ts';
import { runsInline } from '../../shared/definition/step-kinds.ts';
import { decideRevision } from './revision-decision.ts';
import type { RunModel, StepRuntime } from '../../shared/run/run-model.ts';
import { withHandoff } from './handoff-input.ts';

/** The actions of shared/api's RevisePlan, which `weft revise --json` prints. */
export type PlannedAction = RevisePlanAction;

export interface PlannedStep {
  stepId: string;
  kind: StepKind;
  /** rerun: runs again; reuse: input unchanged, evidence reused; keep: onRevise keep; ask: waits for a decision; carry: stays unknown; later: decided when `after` have settled. */
  action: PlannedAction;
  reason: string;
  evidenceId?: string;
  after?: string[];
}

export interface RevisionPlan {
  inputRevision: number;
  steps: PlannedStep[];
}

/** Plans input revision N+1 of the run `m` with `input`. */
export async function planRevision(m: RunModel, index: DefinitionIndex, input: unknown): Promise<RevisionPlan> {
  const revision = m.inputRevision + 1;
  const reached = new Set(
    [...m.steps.values()].filter((s) => s.activation > 0 && s.state !== 'blocked' && s.state !== 'skipped' && !index.compensations.has(s.id)).map((s) => s.id),
  );
  const view: Record<string, { output: unknown }> = {};
  const known = new Set<string>(); // steps whose result under the new input the plan knows
  const run = { id: m.runId, workflowId: m.workflow.id, version: m.workflow.version, inputRevision: revision, startedAt: new Date(m.createdAt).toISOString() };
  const out: PlannedStep[] = [];
  for (const id of graphOrder(index).filter((x) => reached.has(x))) {
    const step = index.steps.get(id) as Step;
    const s = m.steps.get(id) as StepRuntime;
    const before = (index.in.get(id) ?? []).filter((e) => !e.loop).map((e) => e.edge.from);
    const open = [...new Set([...before, ...stepReads(step)])].filter((x) => reached.has(x) && !known.has(x));
    if (open.length > 0) {
      out.push({ stepId: id, kind: step.kind, action: 'later', reason: `decided when ${open.join(', ')} ${open.length === 1 ? 'has' : 'have'} settled`, after: open });
      continue;
    }
    // Each step the revision reaches starts a new activation, and `$activation` gives its number.
    const activation = s.activation + 1;
    const ctx: RunContext = { input, steps: view, run, [ACTIVATION]: activation };
    let stepInput: unknown;
    try {
      stepInput = withHandoff(step, step.input === undefined ? input : await evaluate(step.input, ctx), view);
    } catch (e) {
      out.push({ stepId: id, kind: step.kind, action: 'rerun', reason: `its input cannot be resolved (${(e as Error).message}): it will fail with input_error` });
      continue;
    }
    const d = decideRevision(m, step, s, coverageHash(step, stepInput, view, activation), revision);
    if (d.kind === 'reuse' || d.kind === 'keep') {
      view[id] = { output: d.evidence.output };
      known.add(id);
      out.push({ stepId: id, kind: step.kind, action: d.kind, reason: d.reason, evidenceId: d.evidence.id });
    } else if (d.kind === 'ask') {
      out.push({ stepId: id, kind: step.kind, action: 'ask', reason: d.reason, evidenceId: d.evidence.id });
    } else if (d.kind === 'carry') {
      out.push({ stepId: id, kind: step.kind, action: 'carry', reason: d.reason });
    } else {
      if (runsInline(step.kind)) {
        const config = (step as { config?: Record<string, unknown> }).config ?? {};
        const r = await runInlineStep(step, stepInput, config, ctx, index, m.edges, view);
        if (r.outcome === 'succeeded') {
          view[id] = { output: r.output };
          known.add(id);
        }
      }
      out.push({ stepId: id, kind: step.kind, action: 'rerun', reason: d.reason });
    }
  }
  return { inputRevision: revision, steps: out };
}

/** Step ids in an order where every step comes after the sources of its forward (non-loop) edges. */
function graphOrder(index: DefinitionIndex): string[] {
  const pending = new Map([...index.steps.keys()].map((id) => [id, (index.in.get(id) ?? []).filter((e) => !e.loop).length]));
  const queue = [...pending].filter(([, n]) => n === 0).map(([id]) => id);
  for (let k = 0; k < queue.length; k++) {
    for (const e of index.out.get(queue[k] as string) ?? []) {
      if (e.loop) continue;
      const n = (pending.get(e.edge.to) ?? 0) - 1;
      pending.set(e.edge.to, n);
      if (n === 0) queue.push(e.edge.to);
    }
  }
  return queue;
}
