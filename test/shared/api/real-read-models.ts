// Builds the read models the engine does not produce yet (RunDetail's additions, Timeline) from a
// real restart record and a real event log, so the schemas are tried on real values: real
// inputs, outputs, meta, errors, times and edge reasons. Test scaffolding, not the engine's code.
import type { RestartRecord } from '../../../shared/api/restart-record.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';
import { runMetrics } from '../../../engine/metrics/run-metrics.ts';

type E = RunEvent & { data: Record<string, unknown> };

export function realRunDetail(record: RestartRecord, events: readonly RunEvent[]): unknown {
  const log = events as readonly E[];
  const created = log[0] as E;
  const of = (type: string, step: string, activation: number, attempt?: number): E | undefined =>
    log.find((e) => e.type === type && e.step === step && e.activation === activation && (attempt === undefined || e.attempt === attempt));
  const last = log[log.length - 1] as E;
  const steps = record.steps.map((s) => ({
    ...s,
    outcome: [...log].reverse().find((e) => e.type === 'step_settled' && e.step === s.id)?.data['outcome'] ?? null,
    escalated: false,
    compensates: null,
    permittedActions: s.state === 'waiting' ? [{ action: 'approve', why: 'waits for a person' }, { action: 'reassign', why: 'waits for a person' }] : s.state === 'rejected' ? [{ action: 'retry', why: 'rejected by a person' }] : [],
    attempts: s.attempts.map((a) => {
      const started = of('attempt_started', s.id, a.activation, a.number) as E;
      const end = log.find((e) => ['attempt_succeeded', 'attempt_failed', 'attempt_unknown'].includes(e.type) && e.step === s.id && e.activation === a.activation && e.attempt === a.number);
      const d = end?.data ?? {};
      const queued = a.number === 1 ? of('step_activated', s.id, a.activation) : log.find((e) => e.type === 'retry_scheduled' && e.step === s.id && e.data['nextAttempt'] === a.number);
      return {
        ...a,
        input: started.data['input'],
        ...(d['output'] === undefined ? {} : { output: d['output'] }),
        evidence: typeof d['evidenceId'] === 'string' ? { id: d['evidenceId'], covers: d['covers'], satisfies: end?.type === 'attempt_succeeded' } : null,
        effect: started.data['effect'],
        idempotencyKey: started.data['idempotencyKey'] ?? null,
        timeoutMs: started.data['timeoutMs'] ?? null,
        meta: d['meta'] ?? null,
        queuedAtMs: queued === undefined ? null : queued.type === 'retry_scheduled' ? queued.data['dueAt'] : queued.at,
        startedAtMs: started.at,
        endedAtMs: end?.at ?? null,
      };
    }),
  }));
  const edges = log.filter((e) => e.type === 'step_settled').flatMap((e) =>
    (e.data['edges'] as { id: string; taken: boolean; why: string }[]).map((x) => ({ ...x, from: e.step, to: x.id === 'a' ? 'review' : x.id === 'b' ? 'done' : 'stopped', seq: e.seq, traversals: 0 })),
  );
  const forkOf = created.data['forkOf'];
  return {
    run: {
      ...record.run,
      input: created.data['input'],
      createdAtMs: created.at,
      updatedAtMs: last.at,
      key: created.data['key'] ?? null,
      priority: created.data['priority'] ?? 0,
      queued: false,
      parent: null,
      forkOf: forkOf ?? null,
      failing: null,
      compensation: null,
      lastSeq: last.seq,
      permittedActions: ['succeeded', 'failed', 'cancelled'].includes(record.run.state) ? [] : [{ action: 'pause', why: `the run is ${record.run.state}` }, { action: 'cancel', why: `the run is ${record.run.state}` }],
    },
    steps,
    tasks: [],
    children: [],
    edges,
  };
}

export function realTimeline(events: readonly RunEvent[]): unknown {
  const log = events as readonly E[];
  const m = runMetrics(events);
  const spans = log.flatMap((e): unknown[] => {
    if (e.type === 'attempt_started') {
      const end = log.find((x) => x.seq > e.seq && x.step === e.step && x.activation === e.activation && x.attempt === e.attempt && x.type.startsWith('attempt_') && x.type !== 'attempt_started');
      return [{ kind: 'running', step: e.step, activation: e.activation, attempt: e.attempt, startMs: e.at, endMs: end?.at ?? null, why: e.reason }];
    }
    if (e.type === 'retry_scheduled') return [{ kind: 'retry_wait', step: e.step, activation: e.activation, attempt: null, startMs: e.at, endMs: e.data['dueAt'], why: e.reason }];
    if (e.type === 'task_opened') return [{ kind: 'waiting_person', step: e.step, activation: e.activation, attempt: e.attempt, startMs: e.at, endMs: null, why: e.reason }];
    return [];
  });
  return { runId: m.runId, startedAtMs: m.startedAt, endedAtMs: m.endedAt, asOfMs: m.startedAt + m.durationMs, spans, totals: { activeMs: m.activeMs, waitingMs: m.waitingMs, queueMs: m.queueMs, attentionMs: m.attentionMs } };
}
