// Escalation by the run's policy (docs/policies.md, "Escalation"): a step a rule selects is
// escalated to the rule's `to` once its activation has failed `afterFailures` attempts, or stayed
// unfinished `afterMs` since its first attempt started (a timer on the engine's clock, so virtual
// time runs it in scenarios). Each rule escalates an activation once; the escalation is an event
// (policy_escalated) that names the rule and the person, and nothing else changes: the step goes
// on retrying or waiting, and no external effect is started or repeated by it. A restarted engine
// arms the timers again from the run's log.
import type { StepState } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { selects } from '../../shared/policy/selects.ts';
import type { StepRuntime } from '../../shared/run/run-model.ts';
import type { LiveRun } from './live-run.ts';
import type { RunPort } from './run-port.ts';
import { deadlineTimers } from './deadline-timers.ts';

type EscalationRule = NonNullable<NonNullable<LiveRun['model']['policy']>['rules']['escalation']>[number];

/** The states of a step whose activation has not finished. */
const UNFINISHED: ReadonlySet<StepState> = new Set(['ready', 'running', 'retry_wait', 'waiting']);

/** The escalation rules that select each step, by the policy's rules and the step (both never change): asked at each attempt's start. */
const selected = new WeakMap<object, WeakMap<Step, EscalationRule[]>>();

function rulesFor(live: LiveRun, step: Step): EscalationRule[] {
  const rules = live.model.policy?.rules;
  if (rules?.escalation === undefined || rules.escalation.length === 0) return [];
  let byStep = selected.get(rules);
  if (byStep === undefined) selected.set(rules, (byStep = new WeakMap()));
  let found = byStep.get(step);
  if (found === undefined) byStep.set(step, (found = rules.escalation.filter((r) => selects(r.select, step, live.model.workflow.id))));
  return found;
}

const escalated = (live: LiveRun, s: StepRuntime, rule: string): boolean =>
  live.model.escalations.some((x) => x.stepId === s.id && x.activation === s.activation && x.rule === rule);

/** Failed attempts of the step's current activation (an attempt an engine stop cut short is not a failure). */
const failedAttempts = (s: StepRuntime): number =>
  s.attempts.filter((a) => a.activation === s.activation && a.state === 'failed' && a.error?.code !== 'interrupted').length;

/**
 * After an attempt of `s` failed (its failure recorded): escalates the activation under every rule
 * whose `afterFailures` it has now reached.
 *
 * @example escalateAfterFailure(port, live, s, step); // policy_escalated { rule: 'page-ops', to: 'ops-lead', after: 'failures', failures: 3 }
 */
export function escalateAfterFailure(port: RunPort, live: LiveRun, s: StepRuntime, step: Step): void {
  const failures = failedAttempts(s);
  for (const r of rulesFor(live, step)) {
    if (r.afterFailures === undefined || failures < r.afterFailures || escalated(live, s, r.id)) continue;
    port.emit(live, 'policy_escalated', { rule: r.id, to: r.to, after: 'failures', failures }, {
      step: s.id,
      activation: s.activation,
      reason: `policy "${r.id}": ${failures} failed attempt${failures === 1 ? '' : 's'} of "${s.id}"; ${r.to} is told`,
    });
  }
}

/** Stops a run's escalation timer (the run finished, or the engine stops). */
export function stopEscalations(live: LiveRun): void {
  live.escalations.timer?.cancel();
  live.escalations.timer = undefined;
}

/** When the activation's first attempt started, which `afterMs` counts from; undefined before one. */
function firstStart(s: StepRuntime): number | undefined {
  for (const a of s.attempts) if (a.activation === s.activation) return a.startedAt;
  return undefined;
}

/**
 * The step's current activation's earliest `afterMs` deadline not escalated yet, by its rules;
 * undefined without one. Nothing is kept per step: the run's timer is armed for the earliest of
 * its steps', and when it goes off the deadlines are worked out again from the run's model.
 */
function deadlineOf(live: LiveRun, s: StepRuntime, rules: readonly EscalationRule[]): number | undefined {
  const started = firstStart(s);
  if (started === undefined) return undefined;
  let at: number | undefined;
  for (const r of rules) if (r.afterMs !== undefined && (at === undefined || started + r.afterMs < at) && !escalated(live, s, r.id)) at = started + r.afterMs;
  return at;
}

/**
 * Arms the run's escalation timer for the `afterMs` deadlines of the step's current activation;
 * call when an attempt starts. The clock is the engine's, virtual in scenarios. A deadline later
 * than the one armed costs nothing: it is found again when the timer goes off.
 */
export function armEscalationTimers(port: RunPort, live: LiveRun, s: StepRuntime, step: Step): void {
  const rules = rulesFor(live, step);
  if (rules.length === 0) return;
  const at = deadlineOf(live, s, rules);
  if (at === undefined) return;
  const timer = live.escalations.timer;
  // Already past (a run recovered late, or virtual time): escalates in the next tick, as a timer would.
  if (at <= port.clock.now()) escalateDue(port, live);
  else if (timer === undefined || at < timer.at) armAt(port, live, at);
}

/** (Re-)arms the run's one escalation timer for `at`: a deadline of the clock's shared timer (deadline-timers.ts). */
function armAt(port: RunPort, live: LiveRun, at: number): void {
  live.escalations.timer?.cancel();
  const cancel = deadlineTimers(port.clock).add(at, () => {
    live.escalations.timer = undefined;
    escalateDue(port, live);
  });
  live.escalations.timer = { at, cancel };
}

/** One activation due for escalation under a rule, as the timer found it. */
interface Firing {
  stepId: string;
  activation: number;
  rule: EscalationRule;
  startedAt: number;
}

/** The timer went off: every unfinished activation past a deadline escalates (once per rule); the timer is armed for the next deadline. */
function escalateDue(port: RunPort, live: LiveRun): void {
  const now = port.clock.now();
  const firing: Firing[] = [];
  let next = Infinity;
  for (const s of live.model.steps.values()) {
    const step = live.index.steps.get(s.id);
    if (step === undefined || !UNFINISHED.has(s.state)) continue;
    const rules = rulesFor(live, step);
    if (rules.length === 0) continue;
    const startedAt = firstStart(s);
    if (startedAt === undefined) continue;
    for (const r of rules) {
      if (r.afterMs === undefined || escalated(live, s, r.id)) continue;
      const at = startedAt + r.afterMs;
      if (at <= now) firing.push({ stepId: s.id, activation: s.activation, rule: r, startedAt });
      else if (at < next) next = at;
    }
  }
  if (next !== Infinity) armAt(port, live, next);
  if (firing.length === 0) return;
  live.actions.push(() => {
    for (const d of firing) {
      const s = live.model.steps.get(d.stepId);
      if (s === undefined || s.activation !== d.activation || !UNFINISHED.has(s.state) || escalated(live, s, d.rule.id)) continue;
      const elapsedMs = port.clock.now() - d.startedAt;
      port.emit(live, 'policy_escalated', { rule: d.rule.id, to: d.rule.to, after: 'time', elapsedMs }, {
        step: d.stepId,
        activation: d.activation,
        reason: `policy "${d.rule.id}": "${d.stepId}" is unfinished ${elapsedMs} ms after its first attempt started; ${d.rule.to} is told`,
      });
    }
    return Promise.resolve();
  });
  port.markDirty(live);
}

/** After a restart: arms again the timer of a run under a policy with escalation rules, for its unfinished steps' deadlines. */
export function rearmEscalationTimers(port: RunPort, live: LiveRun): void {
  if ((live.model.policy?.rules.escalation ?? []).length === 0) return;
  escalateDue(port, live);
}
