// The actions `weft bulk` can take on many runs, one entry each: what the action would do to one
// run, judged from the run's log, or why that run is refused. Judging writes nothing (a preview is
// only judging); applying judges the run again as it is then and performs the single operator
// action(s) through EngineService.act, the path `weft retry|resolve|cancel` take, so every check
// and refusal of the engine holds for each run. Replay and migrate judge with the store's
// definitions (the version asked for, the migration plan) and apply through the service's replay
// and migrate, as `weft replay` and `weft migrate` do. Another action is one more entry of
// BULK_ACTION_KINDS with its own `judge`, and its name added to shared/api/bulk-action.ts.
import type { BulkActionName, BulkRequest } from '../../shared/api/bulk-action.ts';
import type { RunAction } from '../../shared/api/run-action.ts';
import type { RunState } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { runActionRefusal, stepActionRefusal } from '../../shared/run/action-rules.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { outputViolations } from '../runtime/output-contract.ts';
import type { ReplayVerdict } from '../../shared/api/replay-result.ts';
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { targetDefinition } from '../evolution/migration-apply.ts';
import { planMigration } from '../evolution/migration-plan.ts';
import { sha256 } from '../store/canonical-json.ts';
import { definitionContent } from '../store/definition-content.ts';
import type { Store } from '../store/store.ts';
import type { EngineService } from './engine-service.ts';
import { ServiceError } from './service-error.ts';

/** What applying did: the run's state once settled, and for a replay its verdict and replay run. */
export interface BulkApplied {
  state: RunState;
  replay?: { replayRunId: string; verdict: ReplayVerdict };
  /** Said instead of the plan's `what`, when the outcome says more (a replay's verdict). */
  what?: string;
}

/** What an action will do to a run: said in words, and done by `apply`. */
export interface BulkPlan {
  what: string;
  apply(service: EngineService): Promise<BulkApplied>;
}

/** What a judge may read besides the run: the store's definitions. */
export interface BulkContext {
  store: Store;
}

/** A run's verdict: a plan, or why the action is refused for it (nothing is written either way). */
export type BulkVerdict = { ok: true; plan: BulkPlan } | { ok: false; reason: string };

/** One bulk action: judges a run, as it is now, for a request of its own kind. */
export interface BulkActionKind<R extends BulkRequest> {
  name: R['action'];
  judge(run: RunModel, request: R, ctx: BulkContext): BulkVerdict | Promise<BulkVerdict>;
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
        return { state: await service.settled(runId) };
      },
    },
  };
}

const who = (r: { by?: string | undefined; reason?: string | undefined }): { by?: string; reason?: string } => ({ ...(r.by === undefined ? {} : { by: r.by }), ...(r.reason === undefined ? {} : { reason: r.reason }) });

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
    if (r.as === 'succeeded' && def !== undefined) {
      const problems = outputViolations(def, r.evidence ?? null);
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

/** Version `version` of the run's workflow as the store keeps it, or why there is none. */
function versionOf(store: Store, run: RunModel, version: number): { ok: true; workflow: Workflow } | { ok: false; reason: string } {
  try {
    return { ok: true, workflow: targetDefinition(store, run.workflow.id, { kind: 'version', version }) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** Replay: the run on another version, in virtual time from its recordings (stored apart; the run is not touched). */
const replay: BulkActionKind<RequestOf<'replay'>> = {
  name: 'replay',
  judge(run, r, ctx) {
    if (run.replayOf !== undefined) return refused(`run ${run.runId} is itself a replay (of run ${run.replayOf.runId}); replay the run it replays`);
    const target = versionOf(ctx.store, run, r.version);
    if (!target.ok) return refused(target.reason);
    return {
      ok: true,
      plan: {
        what: `replay on ${run.workflow.id} v${r.version}`,
        async apply(service) {
          const result = await service.replay(run.runId, { workflow: target.workflow, version: r.version });
          return { state: result.sourceState, replay: { replayRunId: result.replayRunId, verdict: result.verdict }, what: `replayed on v${r.version}: ${result.verdict}${result.needsRecording === undefined ? '' : ` (needs a recording at ${result.needsRecording.stepId})`}` };
        },
      },
    };
  },
};

/** Migrate: an unfinished run to another version, when its plan is safe (the checks of weft migrate). */
const migrate: BulkActionKind<RequestOf<'migrate'>> = {
  name: 'migrate',
  judge(run, r, ctx) {
    if (isFinishedRunState(run.state)) return refused(`run ${run.runId} has ended (${run.state}): only a run still going can move to another version; nothing was changed`);
    const target = versionOf(ctx.store, run, r.toVersion);
    if (!target.ok) return refused(target.reason);
    const request = { ...(r.map === undefined ? {} : { map: r.map }), ...(r.decide === undefined ? {} : { decide: r.decide }) };
    let plan;
    try {
      plan = planMigration(run, target.workflow, sha256(definitionContent(target.workflow)), request);
    } catch (e) {
      return refused(e instanceof Error ? e.message : String(e));
    }
    if (plan.verdict === 'refused') return refused(`refused: ${plan.refusals.map((x) => x.message).join('; ')}`);
    if (plan.verdict !== 'safe') return refused(`needs a decision: ${plan.decisions.filter((d) => d.choice === null).map((d) => d.message).join('; ')}; decide with weft migrate --decide STEP=skip|run`);
    return {
      ok: true,
      plan: {
        what: `migrate v${run.workflow.version} → v${r.toVersion}`,
        async apply(service) {
          const report = await service.migrate([run.runId], { kind: 'version', version: r.toVersion }, { ...request, ...who(r) });
          const line = report.runs[0];
          if (line === undefined || !line.applied) {
            const why = line?.error ?? (line?.plan.refusals.map((x) => x.message).join('; ') || 'its plan is no longer safe');
            throw new ServiceError('refused', `run ${run.runId} was not migrated: ${why}; nothing was changed`);
          }
          return { state: service.runState(run.runId) };
        },
      },
    };
  },
};

/** Every bulk action, by name. */
export const BULK_ACTION_KINDS: { readonly [K in BulkActionName]: BulkActionKind<RequestOf<K>> } = { retry, resolve, cancel, replay, migrate };

/** The verdict of the request's action on one run. */
export function judgeRun(run: RunModel, request: BulkRequest, ctx: BulkContext): BulkVerdict | Promise<BulkVerdict> {
  switch (request.action) {
    case 'retry':
      return BULK_ACTION_KINDS.retry.judge(run, request, ctx);
    case 'resolve':
      return BULK_ACTION_KINDS.resolve.judge(run, request, ctx);
    case 'cancel':
      return BULK_ACTION_KINDS.cancel.judge(run, request, ctx);
    case 'replay':
      return BULK_ACTION_KINDS.replay.judge(run, request, ctx);
    case 'migrate':
      return BULK_ACTION_KINDS.migrate.judge(run, request, ctx);
  }
}
