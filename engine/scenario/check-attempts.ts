// Assertions on single attempts (what an attempt was given and how it ended) and on each
// activation of a step (how every pass over it settled), read from the run's model and log.
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { AttemptRoute } from '../../shared/events/attempt-route.ts';
import type { ScenarioExpect } from '../../shared/scenario/scenario-schema.ts';
import { applyEvent } from '../../shared/run/apply-event.ts';
import { newRunModel, type RunModel } from '../../shared/run/run-model.ts';
import { assertion, type AssertionResult } from './assertion-result.ts';


/** `start`: the virtual time the scenario started at (start times are relative to it). */
export function checkAttempts(x: ScenarioExpect, run: RunModel, start: number): AssertionResult[] {
  const out: AssertionResult[] = [];
  for (const want of x.attempts ?? []) {
    const activation = want.activation ?? 1;
    const label = `attempt ${activation}.${want.attempt} of "${want.step}"`;
    const made = run.steps.get(want.step)?.attempts ?? [];
    const a = made.find((m) => m.activation === activation && m.number === want.attempt);
    if (a === undefined) {
      out.push(assertion(`${label} started`, true, made.length === 0 ? 'it made no attempt' : `its attempts were ${made.map((m) => `${m.activation}.${m.number}`).join(', ')}`));
      continue;
    }
    if (want.state !== undefined) out.push(assertion(`state of ${label}`, want.state, a.state));
    if (want.input !== undefined) out.push(assertion(`input of ${label}`, want.input, a.input ?? null));
    if (want.variant !== undefined) out.push(assertion(`retry variant of ${label}`, want.variant, a.variant));
    if (want.error !== undefined) out.push(assertion(`error code of ${label}`, want.error, a.error?.code ?? null));
    if (want.evidence !== undefined) out.push(assertion(`evidence of ${label}`, want.evidence, a.evidenceId === null ? null : (run.evidence.get(a.evidenceId)?.output ?? null)));
    if (want.partial !== undefined) out.push(assertion(`partial output of ${label}`, want.partial, a.state === 'partial' ? (a.output ?? null) : null));
    if (want.remaining !== undefined) out.push(assertion(`remaining of ${label}`, want.remaining, a.state === 'partial' ? (a.remaining ?? null) : null));
    if (want.candidate !== undefined) out.push(assertion(`candidate of ${label}`, want.candidate, a.route?.chosen ?? null));
    if (want.passedOver !== undefined) out.push(assertion(`candidates passed over by ${label}`, want.passedOver, passedOverOf(a.route)));
    if (want.reason !== undefined) out.push(assertion(`why ${label} chose its candidate`, want.reason, a.route?.reason ?? null));
    if (want.startedAtMs !== undefined) out.push(assertion(`start time of ${label} (ms after the scenario started)`, want.startedAtMs, a.startedAt - start));
  }
  return out;
}

/** Candidate id → why it was passed over, as the attempt's route records it. */
function passedOverOf(route: AttemptRoute | undefined): Record<string, string> {
  return Object.fromEntries((route?.candidates ?? []).flatMap((c) => (c.passedOver === undefined ? [] : [[c.id, c.passedOver]])));
}

/** Outcomes that leave an output on the step (another outcome's output would be an earlier pass's); partial: the part done. */
const WITH_OUTPUT = new Set(['succeeded', 'rejected', 'skipped', 'partial']);

export function checkActivations(x: ScenarioExpect, run: RunModel, events: readonly RunEvent[]): AssertionResult[] {
  const wanted = Object.entries(x.steps ?? {}).filter(([, w]) => w.activations !== undefined);
  if (wanted.length === 0) return [];
  const settled = settlementsOf(run, events);
  const out: AssertionResult[] = [];
  for (const [id, w] of wanted) {
    const want = w.activations ?? [];
    const got = settled.get(id) ?? [];
    out.push(assertion(`activations of "${id}" that settled`, want.length, got.length));
    for (const [k, one] of want.entries()) {
      const g = got[k];
      if (one.outcome !== undefined) out.push(assertion(`outcome of activation ${k + 1} of "${id}"`, one.outcome, g?.outcome ?? 'never settled'));
      if (one.output !== undefined) out.push(assertion(`output of activation ${k + 1} of "${id}"`, one.output, g === undefined ? 'never settled' : g.output));
    }
  }
  return out;
}

/** Per step, the latest settlement of each activation in order: its outcome and output, replayed from the log. */
function settlementsOf(run: RunModel, events: readonly RunEvent[]): Map<string, { outcome: string; output: unknown }[]> {
  const model = newRunModel(run.runId, run.workflow);
  const byStep = new Map<string, Map<number, { outcome: string; output: unknown }>>();
  for (const e of events) {
    applyEvent(model, e);
    if (e.type !== 'step_settled' || e.step === null) continue;
    const s = model.steps.get(e.step);
    if (s === undefined) continue;
    const outcome = e.data.outcome;
    const passes = byStep.get(e.step) ?? new Map<number, { outcome: string; output: unknown }>();
    passes.set(e.activation ?? s.activation, { outcome, output: WITH_OUTPUT.has(outcome) ? (s.output ?? null) : null });
    byStep.set(e.step, passes);
  }
  return new Map([...byStep].map(([id, passes]) => [id, [...passes].sort((a, b) => a[0] - b[0]).map(([, p]) => p)]));
}
