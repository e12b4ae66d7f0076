// The actions `weft bulk` can take on many runs, one entry each: what the action would do to one
// run, judged from the run's log, or why that run is refused. Judging writes nothing (a preview is
// only judging); applying judges the run again as it is then and performs the single operator
// action(s) through EngineService.act, the path `weft retry|resolve|cancel` take, so every check
// and refusal of the engine holds for each run. Another action (replay, migrate) is one more entry
// of BULK_ACTION_KINDS with its own `judge`, and its name added to shared/api/bulk-action.ts.
import type { BulkActionName, BulkRequest } from '../../shared/api/bulk-action.ts';
import type { RunAction } from '../../shared/api/run-action.ts';
import type { RunState } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { runActionRefusal, stepActionRefusal } from '../../shared/run/action-rules.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { checkAgainstSchema } from '../runtime/output-contract.ts';
import type { EngineService } from './engine-service.ts';

/** What an action will do to a run: said in words, and done by `apply`, which answers the run's state once settled. */
export interface BulkPlan {
  what: string;
  apply(service: EngineService): Promise<RunState>;
}

/** A run's verdict: a plan, or why the action is refused for it (nothing is written either way). */
export type BulkVerdict = { ok: true; plan: BulkPlan } | { ok: false; reason: string };

/** One bulk action: judges a run, as it is now, for a request of its own kind. */
export interface BulkActionKind<R extends BulkRequest> {
  name: R['action'];
  judge(run: RunModel, request: R): BulkVerdict | Promise<BulkVerdict>;
}

type RequestOf<K extends BulkActionName> = Extract<BulkRequest, { action: K }>;

const refused = (reason: string): BulkVerdict => ({ ok: false, reason });

/** A plan that performs single operator actions on the run in turn, then waits for it to settle. */
function operatorPlan(runId: string, what: string, actions: readonly RunAction[]): BulkVerdict {
  return {
    ok: true,
    plan: {
      what,
      async apply(service) {
        for (const a of actions) await service.act(runId, a);
        return service.settled(runId);
      },
    },
  };
}

const who = (r: BulkRequest): { by?: string; reason?: string } => ({ ...(r.by === undefined ? {} : { by: r.by }), ...(r.reason === undefined ? {} : { reason: r.reason }) });

const quoted = (ids: readonly string[]): string => ids.map((id) => `"${id}"`).join(', ');

/** Retry: the step named, else every failed step the retry rule permits (an unknown step only when named: repeating an effect is a person's call). */
const retry: BulkActionKind<RequestOf<'retry'>> = {
  name: 'retry',
  judge(run, r) {
    if (r.step !== undefined) {
      const why = stepActionRefusal(run, r.step, 'retry');
      if (why !== undefined) return refused(why.message);
      return operatorPlan(run.runId, `retry step "${r.step}"`, [{ action: 'retry', step: r.step, ...who(r) }]);
    }
    const runWhy = runActionRefusal(run, 'retry');
    if (runWhy !== undefined) return refused(runWhy.message);
    const failed = [...run.steps.values()].filter((s) => s.state === 'failed').map((s) => s.id);
    if (failed.length === 0) return refused(`run ${run.runId} has no failed step to retry (it is ${run.state}); name a step with --step to retry another one; nothing was changed`);
    const blocked = failed.map((id) => ({ id, why: stepActionRefusal(run, id, 'retry') }));
    const ok = blocked.filter((b) => b.why === undefined).map((b) => b.id);
    if (ok.length === 0) return refused(blocked.map((b) => b.why?.message ?? '').join('; '));
    return operatorPlan(run.runId, `retry step${ok.length > 1 ? 's' : ''} ${quoted(ok)}`, ok.map((step) => ({ action: 'retry', step, ...who(r) })));
  },
};

/** Resolve: the unknown step named, else the run's one unknown step, as succeeded (with the evidence, checked against its output schema) or failed. */
const resolve: BulkActionKind<RequestOf<'resolve'>> = {
  name: 'resolve',
  judge(run, r) {
    let step = r.step;
    if (step === undefined) {
      const runWhy = runActionRefusal(run, 'resolve');
      if (runWhy !== undefined) return refused(runWhy.message);
      const unknown = [...run.steps.values()].filter((s) => s.state === 'unknown').map((s) => s.id);
      if (unknown.length === 0) return refused(`run ${run.runId} has no step whose outcome is unknown (it is ${run.state}); nothing was changed`);
      if (unknown.length > 1) return refused(`run ${run.runId} has ${unknown.length} steps whose outcome is unknown (${quoted(unknown)}); name one with --step; nothing was changed`);
      step = unknown[0] ?? '';
    }
    const why = stepActionRefusal(run, step, 'resolve');
    if (why !== undefined) return refused(why.message);
    const def: Step | undefined = indexDefinition(run.workflow).steps.get(step);
    if (r.as === 'succeeded' && def?.output !== undefined) {
      const problems = checkAgainstSchema(def.output, r.evidence ?? null);
      if (problems !== undefined) return refused(`the evidence does not match the output schema of "${step}": ${problems}; give --evidence; nothing was changed`);
    }
    const evidence = r.evidence === undefined ? {} : { evidence: r.evidence };
    return operatorPlan(run.runId, `resolve step "${step}" as ${r.as}`, [{ action: 'resolve', step, as: r.as, ...evidence, ...who(r) }]);
  },
};

/** Cancel: the run, when its state permits. */
const cancel: BulkActionKind<RequestOf<'cancel'>> = {
  name: 'cancel',
  judge(run, r) {
    const why = runActionRefusal(run, 'cancel');
    if (why !== undefined) return refused(why.message);
    return operatorPlan(run.runId, 'cancel the run', [{ action: 'cancel', ...who(r) }]);
  },
};

/** Every bulk action, by name. */
export const BULK_ACTION_KINDS: { readonly [K in BulkActionName]: BulkActionKind<RequestOf<K>> } = { retry, resolve, cancel };

/** The verdict of the request's action on one run. */
export function judgeRun(run: RunModel, request: BulkRequest): BulkVerdict | Promise<BulkVerdict> {
  switch (request.action) {
    case 'retry':
      return BULK_ACTION_KINDS.retry.judge(run, request);
    case 'resolve':
      return BULK_ACTION_KINDS.resolve.judge(run, request);
    case 'cancel':
      return BULK_ACTION_KINDS.cancel.judge(run, request);
  }
}
