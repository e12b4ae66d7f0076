// The read a revalidate check runs first (`revalidate.fetch`, docs/long-running.md): an inline
// http, command or script step, run through the same executors as any step, with the step's
// context for its templates, the step's secrets handling and a timeout. It never runs inside a
// tick: the check that needs it starts it and returns, and its answer comes back as an action of
// the run's next tick, where the check runs with `$fetched` and the step settles. While it runs,
// the step keeps waiting (its decision is recorded); an engine that stops meanwhile runs it again
// when it recovers the run.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { DEFAULT_FETCH_TIMEOUT_MS, type RevalidateFetch } from '../../shared/definition/step-common.ts';
import type { StepKind } from '../../shared/definition/names.ts';
import type { AttemptResult, Executor } from '../executors/executor.ts';
import { currentAttempt, type AttemptRecord, type StepRuntime } from '../../shared/run/run-model.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import { externalise } from '../artifacts/externalise.ts';
import { ABORT_GRACE_MS } from './attempt-launch.ts';
import { evaluate, renderTemplate } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import type { RunPort } from './run-port.ts';
import { readName, type Fetched } from '../../shared/run/revalidation-fetched.ts';
import { revalidationDue, runRevalidation, type RevalidationDue } from './revalidation.ts';

/** What running a check needs of the engine: its port, and the executor of a kind. */
export interface CheckDeps {
  port: RunPort;
  executor(kind: StepKind): Executor | undefined;
}

/** The key of a running fetch among the run's running work (never a step id, which names an attempt there). */
const fetchKey = (stepId: string): string => `${stepId}\u0000revalidate`;

/**
 * A waiting step whose wait ended well runs its revalidate check when one is due, records it
 * (step_revalidated) and settles `stale` when it fails. A check with a `fetch` starts its read and
 * settles the step when the read has answered. True when the step is taken care of here (settled
 * stale, or a read under way); false when it settles `succeeded` as usual.
 */
export async function checkOnResume(deps: CheckDeps, live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord, output: unknown, restarted: boolean): Promise<boolean> {
  const now = deps.port.clock.now();
  const due = revalidationDue(live.model, step, s, a, now, restarted);
  if (due === undefined) return false;
  const fetch = step.revalidate?.fetch;
  if (fetch !== undefined) {
    startFetch(deps, live, s, step, a, fetch, due, output);
    return true;
  }
  return !(await recordCheck(deps.port, live, s, step, a, due, output, undefined));
}

/**
 * Recovery: a step whose decision was recorded while its check's read ran when the engine stopped
 * (it waits, its attempt succeeded) runs the read again; the check's trigger is the restart,
 * unless the run was migrated meanwhile.
 */
export function resumeCheck(deps: CheckDeps, live: LiveRun, stepId: string): void {
  const s = live.model.steps.get(stepId);
  const step = live.index.steps.get(stepId);
  const a = s === undefined ? undefined : currentAttempt(s);
  const fetch = step?.revalidate?.fetch;
  if (s === undefined || step === undefined || a === undefined || fetch === undefined || live.running.has(fetchKey(stepId))) return;
  const due = revalidationDue(live.model, step, s, a, a.endedAt ?? deps.port.clock.now(), true);
  if (due !== undefined) startFetch(deps, live, s, step, a, fetch, due, a.output);
}

/** Runs the check (with what the read gave, if any), records it and settles the step. True when fresh. */
async function recordCheck(port: RunPort, live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord, due: RevalidationDue, output: unknown, fetched: Fetched | undefined): Promise<boolean> {
  const checked = await runRevalidation(step, port.context(live, { output }, s.activation), due, port.clock.now(), fetched);
  // The check read the answer itself; the log keeps a large one by reference, as any step's output.
  const d = fetched?.output === undefined ? checked : { ...checked, inputs: { ...(checked.inputs as object), fetched: { ...fetched, output: externalise(fetched.output, undefined, port.artifacts.store, port.artifacts.threshold) } } };
  port.emit(live, 'step_revalidated', d, { step: s.id, activation: a.activation, attempt: a.number, reason: `${d.verdict}: ${d.why}` });
  if (d.verdict === 'stale') await port.settle(live, s, 'stale', d.why);
  return d.verdict === 'fresh';
}

/** `output`: the step's new output (the decision, the event), which the read's templates may read. */
function startFetch(deps: CheckDeps, live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord, fetch: RevalidateFetch, due: RevalidationDue, output: unknown): void {
  const { port } = deps;
  const key = fetchKey(s.id);
  const controller = new AbortController();
  const timeoutMs = fetch.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const timeout: AttemptResult = { outcome: 'failed', code: 'timeout', message: `no answer within ${timeoutMs} ms` };
  let timedOut = false;
  let cancelGrace: (() => void) | undefined;
  const cancelTimeout = (): void => {
    cancelRead();
    cancelGrace?.();
  };
  const cancelRead = port.clock.setTimer(timeoutMs, () => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    // An executor that does not stop when aborted is not waited on: the read ends as timed out.
    cancelGrace = port.clock.setTimer(ABORT_GRACE_MS, () => answered(timeout));
  });
  live.running.set(key, { controller, cancelTimeout });
  const startedAt = port.clock.now();
  const ctx = port.context(live, { output }, s.activation, { sensitive: step.readsSensitive === true });
  const executor = deps.executor(fetch.kind);
  let promise: Promise<AttemptResult>;
  try {
    if (executor === undefined) throw new Error(`this engine has no executor for ${fetch.kind} steps`);
    promise = executor.execute({
      runId: live.model.runId,
      // Scenario scripts answer the read under this name (docs/scenarios.md).
      stepId: readName(s.id),
      activation: a.activation,
      attempt: a.number,
      input: a.input,
      config: fetch.config,
      step: { id: s.id, kind: fetch.kind, config: fetch.config, effect: 'none', timeoutMs } as Step,
      idempotencyKey: undefined,
      signal: controller.signal,
      workspaceDir: live.model.workspaceDir,
      expressions: { render: (t) => renderTemplate(t, ctx), evaluate: (e) => evaluate(e, ctx) },
    });
  } catch (e) {
    promise = Promise.resolve({ outcome: 'failed', code: 'executor_error', message: (e as Error).message, retryable: false });
  }
  let done = false;
  function answered(result: AttemptResult): void {
    if (done) return;
    done = true;
    cancelTimeout();
    const fetched = fetchedOf(fetch.kind, timedOut ? timeout : result, port.clock.now() - startedAt);
    port.enqueue(live, async () => {
      if (live.running.get(key)?.controller !== controller) return;
      live.running.delete(key);
      // The run may have been cancelled, or the step settled otherwise, while the read ran.
      const cur = live.model.steps.get(s.id);
      const last = cur === undefined ? undefined : currentAttempt(cur);
      if (isTerminal(live.model.state) || cur === undefined || cur.state !== 'waiting' || last?.number !== a.number || last.activation !== a.activation || last.state !== 'succeeded') return;
      if (await recordCheck(port, live, cur, step, last, due, output, fetched)) await port.settle(live, cur, 'succeeded', `attempt ${last.evidenceId ?? ''} succeeded; its revalidate check is fresh`, last.evidenceId ?? undefined);
    }).catch(() => {
      // A closed or failed engine: the next one recovers the step and reads again.
      live.running.delete(key);
    });
  }
  promise.then(answered, (e: unknown) => answered({ outcome: 'failed', code: 'executor_error', message: e instanceof Error ? e.message : String(e), retryable: false }));
}

/** The read's evidence: its kind, whether it answered well, its output or error, and how long it took. */
function fetchedOf(kind: RevalidateFetch['kind'], r: AttemptResult, durationMs: number): Fetched {
  if (r.outcome === 'succeeded') return { kind, ok: true, output: r.output, durationMs };
  if (r.outcome === 'failed') return { kind, ok: false, error: { code: r.code, message: r.message }, durationMs };
  if (r.outcome === 'partial') return { kind, ok: false, error: { code: 'partial', message: 'the read answered only in part' }, durationMs };
  return { kind, ok: false, error: { code: 'unknown', message: r.reason }, durationMs };
}
