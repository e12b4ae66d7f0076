// What reached a stored run from people and the world, as a scenario's timed inputs: people's
// decisions, delivered events, operator actions and input revisions, each at its offset from the
// run's start. A scenario runs in virtual time, where the engine takes no time of its own and a
// retry waits its full backoff (the scenario's seeded jitter may wait longer than the real one
// did); so each input comes after the offset it had by as much as the jitter shortened the real
// backoffs before it, and finds the run where the real one was (a task open, a step failed).
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { ScenarioDecision, ScenarioEvent, ScenarioOperatorAction, ScenarioRevision } from '../../shared/scenario/scenario-schema.ts';
import type { z } from 'zod';
import { backoffMs } from '../runtime/retry-policy.ts';

export interface RecordedInputs {
  decisions: z.infer<typeof ScenarioDecision>[];
  events: z.infer<typeof ScenarioEvent>[];
  operator: z.infer<typeof ScenarioOperatorAction>[];
  revise: z.infer<typeof ScenarioRevision>[];
}

/** The reason as the person gave it: the engine's event reason is `VERB by WHO: REASON`. */
function givenReason(reason: string | null, by: string): string | undefined {
  if (reason === null) return undefined;
  const at = reason.indexOf(` by ${by}: `);
  return at < 0 ? undefined : reason.slice(at + ` by ${by}: `.length);
}

/** The inputs of the run whose log is `events` (run_created first), at virtual offsets. */
export function recordedInputs(workflow: Workflow, events: readonly RunEvent[]): RecordedInputs {
  const out: RecordedInputs = { decisions: [], events: [], operator: [], revise: [] };
  const start = events[0]?.at ?? 0;
  const policy = new Map(workflow.steps.map((s) => [s.id, s.retry]));
  let slack = 0;
  const offset = (at: number): number => Math.max(0, Math.round(at - start)) + slack;
  const seen = new Map<string, unknown>();
  for (const [i, e] of events.entries()) {
    switch (e.type) {
      case 'retry_scheduled': {
        // The engine's delay without jitter is the longest the scenario's can be.
        const longest = backoffMs(policy.get(e.step ?? ''), e.data.nextAttempt, () => 0);
        slack += Math.max(0, longest - e.data.delayMs);
        break;
      }
      case 'task_decided': {
        const d = e.data;
        out.decisions.push({
          step: e.step ?? '',
          atMs: offset(e.at),
          decision: d.decision === 'approved' ? 'approve' : 'reject',
          ...(d.data === undefined ? {} : { data: d.data }),
          ...(d.choice === undefined ? {} : { choice: d.choice }),
          ...(d.reason === undefined ? {} : { reason: d.reason }),
          by: d.by,
        });
        break;
      }
      case 'event_received': {
        const d = e.data;
        seen.set(d.id, d.data);
        out.events.push({ atMs: offset(d.receivedAt), name: d.name, key: d.key, id: d.id, data: d.data });
        break;
      }
      case 'event_duplicate': {
        const d = e.data;
        out.events.push({ atMs: offset(e.at), name: d.name, key: d.key, id: d.id, data: seen.get(d.id) ?? null, expect: 'duplicate' });
        break;
      }
      case 'run_input_revised':
        out.revise.push({ atMs: offset(e.at), input: e.data.input });
        break;
      case 'operator_action': {
        const action = operatorActionOf(e, events.slice(i + 1));
        if (action !== undefined) out.operator.push({ atMs: offset(e.at), ...action });
        break;
      }
      default:
        break;
    }
  }
  out.events.sort((a, b) => a.atMs - b.atMs);
  return out;
}

/** An operator_action event as the scenario's action; a retry's new input is on the step_activated that follows it. */
function operatorActionOf(e: RunEvent<'operator_action'>, after: readonly RunEvent[]): Omit<z.infer<typeof ScenarioOperatorAction>, 'atMs'> | undefined {
  const d = e.data;
  const reason = givenReason(e.reason, d.by);
  const who = { by: d.by, ...(reason === undefined ? {} : { reason }) };
  const step = e.step ?? undefined;
  switch (d.action) {
    case 'pause':
    case 'resume':
    case 'cancel':
      return { action: d.action, ...who };
    case 'retry': {
      const activated = after.find((x) => x.type === 'step_activated' && x.step === e.step);
      const input = activated?.type === 'step_activated' ? activated.data.input : undefined;
      return { action: 'retry', ...(step === undefined ? {} : { step }), ...(input === undefined ? {} : { input }), ...who };
    }
    case 'skip':
      return { action: 'skip', ...(step === undefined ? {} : { step }), output: d.output ?? null, ...who };
    case 'resolve':
      return { action: 'resolve', ...(step === undefined ? {} : { step }), as: d.as ?? 'succeeded', ...(d.output === undefined ? {} : { evidence: d.output }), ...who };
    case 'keep':
      return { action: 'keep', ...(step === undefined ? {} : { step }), ...who };
  }
}
