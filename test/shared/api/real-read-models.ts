// Builds RunDetail's additions by hand from a real restart record and a real event log, by a walk
// of the log of its own: an oracle that the engine's RunDetail (weft inspect --json) is checked
// against, on real inputs, outputs, meta, errors, times and edge reasons. Test scaffolding.
import type { RestartRecord } from '../../../shared/api/restart-record.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';

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
        // An attempt that waited (a task) ends when its step is cancelled or withdrawn.
        endedAtMs: end?.at ?? log.find((e) => e.type === 'step_settled' && e.step === s.id && e.activation === a.activation && ['cancelled', 'skipped'].includes(String(e.data['outcome'])))?.at ?? null,
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
    cost: costOf(log),
  };
}

/** The run's cost read by hand from its attempt end events (what an attempt's meta recorded). */
function costOf(log: readonly E[]): unknown {
  const steps: Record<string, { total: number; attempts: number; inputTokens: number; outputTokens: number; unpriced: number }> = {};
  let currency = 'USD';
  for (const e of log) {
    if (!['attempt_succeeded', 'attempt_failed', 'attempt_unknown'].includes(e.type) || e.step === null) continue;
    const meta = e.data['meta'] as { cost?: { amount: number; currency: string }; usage?: { inputTokens: number; outputTokens: number } } | undefined;
    if (meta?.cost === undefined && meta?.usage === undefined) continue;
    const s = (steps[e.step] ??= { total: 0, attempts: 0, inputTokens: 0, outputTokens: 0, unpriced: 0 });
    s.attempts++;
    s.inputTokens += meta.usage?.inputTokens ?? 0;
    s.outputTokens += meta.usage?.outputTokens ?? 0;
    if (meta.cost === undefined) s.unpriced++;
    else {
      s.total += meta.cost.amount;
      currency = meta.cost.currency;
    }
  }
  const all = Object.values(steps);
  const sum = (f: (s: (typeof all)[number]) => number): number => all.reduce((n, s) => n + f(s), 0);
  return { total: sum((s) => s.total), currency, inputTokens: sum((s) => s.inputTokens), outputTokens: sum((s) => s.outputTokens), unpriced: sum((s) => s.unpriced), steps };
}
