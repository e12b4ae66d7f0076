// Attempts, from start to end: the runner applies the attempt plan (attempt-plan.ts), reuses
// evidence (evidence-reuse.ts), runs pure steps inline, hands waiting kinds to their handler and
// the rest to an executor (launched after the commit); then records how each attempt ended, and
// retries or settles per the failure policy (failure-policy.ts).
import type { SharedStore } from './live-run.ts';
import type { StepKind } from '../../shared/definition/names.ts';
import type { AttemptErrorCode } from '../../shared/events/attempt-error-codes.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult, Executor } from '../executors/executor.ts';
import type { AttemptMeta } from '../../shared/events/attempt-meta.ts';
import { fixCost } from '../../shared/cost/fix-cost.ts';
import type { PriceTable } from '../../shared/cost/price-table.ts';
import { attemptConfig, keySource, planAttempt } from './attempt-plan.ts';
import { attemptInput } from './attempt-input.ts';
import { externalise } from '../artifacts/externalise.ts';
import { readableOutput } from '../artifacts/unreadable-output.ts';
import { billsAttempts, runsOutside } from '../../shared/definition/step-kinds.ts';
import { budgetBeforeAttempt } from '../../shared/run/run-budget.ts';
import { spentOf } from './run-spend.ts';
import { debugPlan } from './debug-plan.ts';
import { planReuse, reusedEvidence } from './evidence-reuse.ts';
import { evaluate, type RunContext } from './expressions.ts';
import { decideAfterFailure, type FailureDecision } from './failure-policy.ts';
import { policyRetryLimit } from '../../shared/policy/retry-limit.ts';
import { armEscalationTimers, escalateAfterFailure } from './policy-escalation.ts';
import { coverageHash } from './input-coverage.ts';
import { runInlineStep } from './inline-steps.ts';
import type { Completion, Launch, LiveRun } from './live-run.ts';
import { outputViolations } from './output-contract.ts';
import type { RunPort } from './run-port.ts';
import { ResourcePools } from './resource-pools.ts';
import { attemptId, currentAttempt, type AttemptRecord, type Evidence, type StepRuntime } from '../../shared/run/run-model.ts';
import { checkOnResume, resumeCheck } from './revalidation-fetch.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import { partialReason, partialSoFar } from '../../shared/run/partial-so-far.ts';
import type { StepHandler } from './step-handler.ts';
import { inputErrorResult } from './input-error-result.ts';
import type { AttemptRoute } from '../../shared/events/attempt-route.ts';
import { confidenceFailure, noCandidateResult, recordCircuit, routeAttempt } from './attempt-route.ts';
import { CircuitBreakers } from './circuit-breakers.ts';
import { countedAttempts } from './failure-policy.ts';
import { configForAttempt } from './retry-policy.ts';

/** What the runner needs of the core beyond RunPort. */
export interface AttemptHost {
  executor(kind: StepKind): Executor | undefined;
  handler(kind: StepKind): StepHandler | undefined;
  /** True once drain() is called: attempts that run outside the engine wait for the next engine. */
  draining(): boolean;
  /** Starts the executor attempt after this tick's commit; `durable` asks for that commit to be fsynced. */
  launch(l: Launch, durable: boolean): void;
  /** The other engines sharing the store, whose pools are the same pools (a PostgreSQL store). */
  shared?: SharedStore;
}


export class AttemptRunner {
  /** Concurrency pools of limits.concurrency, shared by every run this engine schedules (and, sharing the store, by its engines). */
  readonly pools: ResourcePools;
  /** The circuits of the providers agent candidates call, shared by every run this engine schedules. */
  readonly circuits = new CircuitBreakers();

  /** `prices`: the price table of a workspace, to fix an attempt's cost (none: only declared and scripted costs; EngineOptions.prices). */
  constructor(private readonly port: RunPort, private readonly host: AttemptHost, private readonly prices?: (workspaceDir: string) => PriceTable | undefined) {
    this.pools = new ResourcePools(port, host.shared);
  }

  /** Starts the step's next attempt, unless a drain or a full resource pool holds it (it stays ready or retry_wait). */
  async start(live: LiveRun, stepId: string): Promise<void> {
    const { port } = this;
    const m = live.model;
    const s = m.steps.get(stepId) as StepRuntime;
    const step = live.index.steps.get(stepId) as Step;
    const handler = this.host.handler(step.kind);
    // Only attempts that run outside the engine take a slot of the step's resource pool.
    const gate = runsOutside(step.kind) ? this.pools.gate(m.workflow.limits, step.resource) : undefined;
    const plan = planAttempt(s, step, {
      draining: this.host.draining(),
      slotFree: gate === undefined ? undefined : gate.inUse < gate.limit,
      handled: handler !== undefined,
    });
    if (plan.kind === 'hold') return; // the store is being given back: the next engine starts it
    if (plan.kind === 'queue') {
      if (gate !== undefined) this.pools.queue(gate, live, stepId);
      return;
    }
    const { number, effect } = plan;
    const debug = debugPlan(m, stepId, s.activation, number);
    if (debug.kind === 'break') {
      // The step stays ready: continue or step starts it (and passes this breakpoint once).
      port.emit(live, 'breakpoint_hit', { stepping: debug.stepping }, { step: stepId, activation: s.activation, reason: debug.reason });
      if (m.state !== 'paused') port.emit(live, 'run_state_changed', { state: 'paused' }, { reason: debug.reason });
      return;
    }
    const ctx = port.context(live, {}, s.activation);
    let input: unknown;
    let recorded: unknown;
    let idempotencyKey: string | undefined;
    try {
      ({ input, recorded } = await attemptInput(port, live, s, step));
      const key = keySource(s, step, number);
      idempotencyKey = key.kind === 'value' ? key.value : String(await evaluate(key.expression, ctx)); // one key per activation, given to every attempt
    } catch (e) {
      port.emit(live, 'attempt_started', { inputHash: '-', input: null, variant: null, effect }, { step: stepId, activation: s.activation, attempt: number });
      await this.finish(live, { stepId, activation: s.activation, attempt: number, result: inputErrorResult(e) });
      return;
    }
    // A compensation's evidence covers the evidence it offsets (run and id): it is reused only
    // where that same booking is reused, never for a new one with the same input.
    const offset = s.compensates === null ? null : m.steps.get(s.compensates)?.evidence ?? null;
    const inputHash = coverageHash(step, recorded, m.view, s.activation, offset === null ? null : { run: offset.fromRun, evidence: offset.id });

    if (debug.kind === 'pin') {
      // Pinned evidence is this debug run's own: it is checked like a real output and marked, and
      // nothing is reused in its place (a pin says what the step gives here).
      port.emit(live, 'attempt_started', {
        inputHash,
        input: recorded,
        variant: null,
        effect,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
        pinned: true,
      }, { step: stepId, activation: s.activation, attempt: number, reason: 'pinned output (debug run): the step is not called' });
      await this.finish(live, { stepId, activation: s.activation, attempt: number, result: { outcome: 'succeeded', output: debug.output } });
      return;
    }

    if (number === 1 && (await this.reuseOrCarry(live, s, step, inputHash, recorded))) return;
    // A step that bills does not start when its run's budget would be exceeded (docs/budgets.md):
    // it settles budget_exceeded, which an edge may route, and its executor is never called. A
    // compensation always runs: offsetting an effect that happened is not new work to save on.
    const overBudget = billsAttempts(step.kind) && s.compensates === null ? budgetBeforeAttempt(m, step, s, spentOf(live)) : undefined;
    if (overBudget !== undefined) {
      await port.settle(live, s, 'budget_exceeded', overBudget);
      return;
    }

    const { counted, config: patched, variant } = attemptConfig(s, step);
    // Variants patch the config first; then the chosen candidate applies (docs/routing.md).
    const routed = await routeAttempt(s, step, patched, ctx, this.circuits, port.clock.now());
    const config = routed?.config ?? patched;
    const reason = [variant === null ? undefined : `retry variant ${variant + 1}`, routed?.route.reason].filter((r) => r !== undefined).join('; ');
    // Sharing the store, the pool's slot is the store's: taken (or queued for) before anything is written.
    const sharedSlot = gate === undefined ? false : this.pools.takeShared(gate, live, stepId, step);
    if (sharedSlot === undefined) return;
    port.emit(live, 'attempt_started', {
      inputHash,
      input: recorded,
      variant,
      effect,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      ...(step.timeoutMs === undefined ? {} : { timeoutMs: step.timeoutMs }),
      ...(routed === undefined ? {} : { route: routed.route }),
    }, { step: stepId, activation: s.activation, attempt: number, ...(reason === '' ? {} : { reason }) });
    armEscalationTimers(port, live, s, step);
    if (routed !== undefined && routed.candidate === undefined) {
      await this.finish(live, { stepId, activation: s.activation, attempt: number, result: noCandidateResult(routed.route) });
      return;
    }

    if (plan.route === 'inline') {
      await this.finish(live, { stepId, activation: s.activation, attempt: number, result: await this.runInline(live, step, input, config) });
      return;
    }
    if (plan.route === 'handler' && handler !== undefined) {
      await handler.start(live, s, step, { number, input, config, ctx });
      return;
    }
    const executor = this.host.executor(step.kind);
    if (executor === undefined) {
      await this.finish(live, { stepId, activation: s.activation, attempt: number, result: { outcome: 'failed', code: 'unsupported_kind', message: `this engine cannot run "${step.kind}" steps yet`, retryable: false } });
      return;
    }
    const partial = partialSoFar(s);
    this.host.launch({ live, stepId, activation: s.activation, attempt: number, countedAttempt: counted, executor, input, config, step, idempotencyKey, candidate: routed?.candidate, partial }, effect === 'external');
    if (gate && !sharedSlot) this.pools.hold(gate, live, stepId);
  }

  /** A step came due: a retry starts, or the handler of a waiting step hears of its timer. */
  async timerDue(live: LiveRun, stepId: string): Promise<void> {
    const s = live.model.steps.get(stepId);
    if (s === undefined || isTerminal(live.model.state)) return;
    if (s.state === 'retry_wait') {
      await this.start(live, stepId);
    } else if (s.state === 'waiting') {
      const a = currentAttempt(s);
      const step = live.index.steps.get(stepId);
      if (a === undefined || step === undefined) return;
      await this.host.handler(step.kind)?.timerDue?.(live, s, step, a);
    }
  }

  /**
   * Restart per prerequisite (evidence-reuse.ts): reuse evidence (or an unknown outcome) whose
   * coverage still matches; keep, or hold for a person, an effect whose input changed after it
   * happened. Returns true when the step must not start an attempt now.
   */
  private async reuseOrCarry(live: LiveRun, s: StepRuntime, step: Step, inputHash: string, input: unknown): Promise<boolean> {
    const plan = planReuse(live.model, step, s, inputHash, input);
    const at = { step: s.id, activation: s.activation };
    switch (plan.kind) {
      case 'run':
        return false;
      case 'reuse':
        this.port.emit(live, 'evidence_reused', plan.reused, { ...at, reason: plan.reason });
        await this.port.settle(live, s, 'succeeded', plan.settleReason, plan.evidenceId);
        return true;
      case 'carry':
        this.port.emit(live, 'outcome_carried', plan.carried, { ...at, reason: plan.reason });
        await this.port.settle(live, s, 'unknown', plan.settleReason);
        return true;
      case 'ask':
        this.port.emit(live, 'revision_held', plan.held, { ...at, reason: plan.reason });
        return true;
    }
  }

  /** Settles the step with earlier evidence, now covering the current revision (reused, or kept). */
  async reuseEvidence(live: LiveRun, s: StepRuntime, ev: Evidence, reason: string): Promise<void> {
    this.port.emit(live, 'evidence_reused', reusedEvidence(ev, live.model.inputRevision), { step: s.id, activation: s.activation, reason });
    await this.port.settle(live, s, 'succeeded', `evidence ${ev.id} reused`, ev.id);
  }

  private runInline(live: LiveRun, step: Step, input: unknown, config: Record<string, unknown>): Promise<AttemptResult> {
    const ctx = this.port.context(live, {}, live.model.steps.get(step.id)?.activation, { sensitive: step.readsSensitive === true });
    return runInlineStep(step, input, config, ctx, live.index, live.model.edges, live.model.view);
  }

  /** Records how an attempt ended; then routes it, unless the run has ended meanwhile (a cancel). */
  async finish(live: LiveRun, c: Completion): Promise<void> {
    const { port } = this;
    const m = live.model;
    const s = m.steps.get(c.stepId);
    const a = s?.attempts.find((x) => x.activation === c.activation && x.number === c.attempt);
    if (s === undefined || a === undefined || a.state !== 'running') return;
    const step = live.index.steps.get(c.stepId) as Step;
    this.pools.release(live, step);
    const at = { step: c.stepId, activation: c.activation, attempt: c.attempt };
    const r = readableOutput(c.result, port.artifacts.store, c.stepId);
    const covers = { inputHash: a.inputHash, definitionVersion: m.workflow.version, inputRevision: m.inputRevision };
    const evidenceId = attemptId(c.stepId, { activation: c.activation, number: c.attempt });
    const meta = this.metaWithCost(live, step, r, a.pinned === true);
    const pinned = a.pinned === true ? { pinned: true as const } : {};
    // The log keeps sensitive fields and large outputs by reference (docs/long-running.md).
    const kept = (output: unknown): unknown => externalise(output, step.output, port.artifacts.store, port.artifacts.threshold);
    let ended: { outcome: 'unknown'; reason: string } | { outcome: 'failed'; code: string; retryable: boolean } | { outcome: 'succeeded' } | { outcome: 'partial' };
    if (r.outcome === 'partial') {
      // The part done is evidence of what happened, not an unknown: no schema or accept rule
      // judges it (they describe the whole output); the attempt that continues gets it.
      port.emit(live, 'attempt_partial', { output: kept(r.output), ...(r.remaining === undefined ? {} : { remaining: r.remaining }), ...meta }, { ...at, reason: partialReason(r.remaining) });
      ended = { outcome: 'partial' };
    } else if (r.outcome === 'unknown') {
      port.emit(live, 'attempt_unknown', { error: { code: 'unknown', message: r.reason }, ...meta }, { ...at, reason: r.reason });
      ended = { outcome: 'unknown', reason: r.reason };
    } else if (r.outcome === 'failed') {
      port.emit(live, 'attempt_failed', {
        error: { code: r.code, message: r.message },
        retryable: r.retryable !== false,
        ...(r.output === undefined ? {} : { output: kept(r.output), evidenceId, covers }),
        ...meta,
      }, { ...at, reason: r.message });
      ended = { outcome: 'failed', code: r.code, retryable: r.retryable !== false };
    } else {
      // Succeeded by the executor's account; the contract decides whether it counts.
      const found = (await this.contractFailure(live, step, r.output)) ?? (await this.confidenceFailure(live, s, step, a.route, r.output));
      if (found) {
        const { retryable: left = true, ...failure } = found;
        // A pinned output that breaks the contract would break it again on every retry.
        const retryable = a.pinned !== true && left;
        port.emit(live, 'attempt_failed', { error: failure, retryable, output: kept(r.output), evidenceId, covers, ...meta, ...pinned }, { ...at, reason: `${a.pinned === true ? 'the pinned output fails the contract: ' : ''}${failure.message}` });
        ended = { outcome: 'failed', code: failure.code, retryable };
      } else {
        port.emit(live, 'attempt_succeeded', { output: kept(r.output), evidenceId, covers, ...meta, ...pinned }, { ...at, ...(a.pinned === true ? { reason: 'pinned output (debug run)' } : {}) });
        ended = { outcome: 'succeeded' };
      }
    }
    recordCircuit(this.circuits, a.route, ended.outcome === 'partial' ? 'succeeded' : ended.outcome, ended.outcome === 'failed' ? ended.code : undefined, port.clock.now());
    if (isTerminal(m.state)) this.settleAfterEnd(live, s, ended.outcome === 'failed' ? 'cancelled' : ended.outcome, ended.outcome === 'succeeded' ? evidenceId : undefined);
    else if (ended.outcome === 'unknown') await port.settle(live, s, 'unknown', ended.reason);
    else if (ended.outcome === 'partial') await this.afterPartial(live, s, step, evidenceId);
    else if (ended.outcome === 'failed') await this.afterFailure(live, s, step, ended.code, ended.retryable);
    else if (!(await this.staleOnResume(live, s, step, a, r.outcome === 'succeeded' ? r.output : undefined))) await port.settle(live, s, 'succeeded', `attempt ${evidenceId} ${a.pinned === true ? 'settled with its pinned output' : 'succeeded'}`, evidenceId);
  }

  /** A waiting step whose wait ended well runs its revalidate check when due (revalidation-fetch.ts); true when that settles it, or will. */
  private staleOnResume(live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord, output: unknown): Promise<boolean> {
    // A restart counts for the activation that waited through it, not a later one (a loop's next pass).
    const restarted = live.restartedWaits.get(s.id) === a.activation;
    live.restartedWaits.delete(s.id);
    return checkOnResume({ port: this.port, executor: (kind) => this.host.executor(kind) }, live, s, step, a, output, restarted);
  }

  /** Recovery: the read of a check the engine stopped during runs again (revalidation-fetch.ts). */
  resumeCheck(live: LiveRun, stepId: string): void {
    resumeCheck({ port: this.port, executor: (kind) => this.host.executor(kind) }, live, stepId);
  }

  /** The attempt's meta, with its cost fixed (docs/cost.md): the executor's own, its tokens priced, or the step's declared cost. */
  private metaWithCost(live: LiveRun, step: Step, r: AttemptResult, pinned: boolean): { meta?: AttemptMeta } {
    let table: PriceTable | undefined;
    try {
      table = this.prices?.(live.model.workspaceDir);
    } catch {
      table = undefined; // a price table that cannot be read prices nothing; it never stops a run
    }
    const cost = fixCost(r.meta, step, table, { atMs: this.port.clock.now(), errorCode: r.outcome === 'failed' ? r.code : undefined, pinned });
    if (cost === undefined || cost === r.meta?.cost) return r.meta === undefined ? {} : { meta: r.meta };
    return { meta: { ...r.meta, cost } };
  }

  /** Why an output the executor reports as a success does not count: it breaks the output schema or the accept rule. */
  private async contractFailure(live: LiveRun, step: Step, output: unknown): Promise<{ code: AttemptErrorCode; message: string; retryable?: boolean } | undefined> {
    const violations = outputViolations(step, output);
    if (violations !== undefined) return { code: 'invalid_output', message: `the output does not match the step's output schema: ${violations}` };
    if (step.accept === undefined) return undefined;
    try {
      const ctx: RunContext = this.port.context(live, { output }, live.model.steps.get(step.id)?.activation);
      const ok = await evaluate(step.accept, ctx);
      return ok === true ? undefined : { code: 'acceptance_not_met', message: `acceptance rule "${step.accept}" is not met` };
    } catch (e) {
      return { code: 'acceptance_not_met', message: `acceptance rule could not be evaluated: ${(e as Error).message}` };
    }
  }

  /** A routed agent attempt whose output is not confident enough (`choose.confidence`) fails with `low_confidence`. */
  private async confidenceFailure(live: LiveRun, s: StepRuntime, step: Step, route: AttemptRoute | undefined, output: unknown): Promise<{ code: AttemptErrorCode; message: string; retryable: boolean } | undefined> {
    if (route === undefined) return undefined;
    const base: Record<string, unknown> = 'config' in step && step.config !== undefined ? step.config : {};
    const { config } = configForAttempt(base, step.retry, countedAttempts(s));
    return confidenceFailure(route, config, this.port.context(live, { output }, s.activation));
  }

  /**
   * An attempt that ends after its run has ended (a cancel aborts running attempts): its result is
   * recorded above, and the step settles with it, routing nothing. An external attempt that may
   * have had its effect stays `unknown`, so the record says what a person may need to check.
   */
  private settleAfterEnd(live: LiveRun, s: StepRuntime, outcome: 'succeeded' | 'unknown' | 'partial' | 'cancelled', evidenceId?: string): void {
    this.port.emit(live, 'step_settled', { outcome, ...(evidenceId === undefined ? {} : { evidenceId }), edges: [] }, {
      step: s.id,
      activation: s.activation,
      reason: `the run had ended (${live.model.state}) when the attempt ended`,
    });
  }

  /**
   * After a partial attempt (docs/long-running.md#partial-completion): an edge that names
   * `partial` routes it at once; otherwise it is retried like a retryable failure while
   * `retry.maxAttempts` allows (the next attempt continues from it), then settles `partial`.
   */
  private async afterPartial(live: LiveRun, s: StepRuntime, step: Step, attempt: string): Promise<void> {
    const routed = (live.index.out.get(s.id) ?? []).some((e) => e.outcomes.has('partial'));
    if (routed) {
      await this.port.settle(live, s, 'partial', `attempt ${attempt} finished part of the work; an edge follows partial`);
      return;
    }
    const d = decideAfterFailure(s, step, 'partial', true, this.port.random, policyRetryLimit(live.model.policy?.rules, step, live.model.workflow.id));
    if (d.kind === 'settle') await this.port.settle(live, s, 'partial', `attempt ${attempt} finished part of the work; ${d.reason}`);
    else this.scheduleRetry(live, s, d);
  }

  private async afterFailure(live: LiveRun, s: StepRuntime, step: Step, code: string, retryable: boolean): Promise<void> {
    escalateAfterFailure(this.port, live, s, step);
    const d = decideAfterFailure(s, step, code, retryable, this.port.random, policyRetryLimit(live.model.policy?.rules, step, live.model.workflow.id));
    if (d.kind === 'settle') await this.port.settle(live, s, d.outcome, d.reason);
    else this.scheduleRetry(live, s, d);
  }

  /** Schedules the step's next attempt as decided: at once (a rerun) or after the backoff. */
  private scheduleRetry(live: LiveRun, s: StepRuntime, d: Exclude<FailureDecision, { kind: 'settle' }>): void {
    const now = this.port.clock.now();
    const at = { step: s.id, activation: s.activation, reason: d.reason };
    if (d.kind === 'rerun') {
      this.port.emit(live, 'retry_scheduled', { nextAttempt: d.nextAttempt, dueAt: now, delayMs: 0 }, at);
      live.due.push(s.id);
    } else {
      this.port.emit(live, 'retry_scheduled', { nextAttempt: d.nextAttempt, dueAt: now + d.delayMs, delayMs: d.delayMs }, at);
      this.port.arm(live, s.id, now + d.delayMs);
    }
  }
}
