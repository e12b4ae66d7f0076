// What a replay plays back (weft replay, docs/evolution.md): the source run's recorded answers
// from the outside world, read from its log. For each step that does work, its ended attempts in
// order, each with the hash of its resolved input (attempt_started's `inputHash`, the hash
// evidence covers), its outcome and how long it took; for each human step, its decisions with the
// input hash of the attempt that opened the task and how long after the opening each came; and
// the events the run was delivered, with when. Attempts an operator ended (resolve, skip) or that
// never ended are not recordings: the replay shows what the new definition does on its own.
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { AttemptResult } from '../executors/executor.ts';
import { readName } from '../../shared/run/revalidation-fetched.ts';
import { recordedReads } from './recorded-reads.ts';

/** One recorded attempt of a step: its input hash, what it answered and in how much time. */
export interface RecordedAttempt {
  inputHash: string;
  input: unknown;
  result: AttemptResult;
  durationMs: number;
}

/** One recorded decision of a human step's task. */
export interface RecordedDecision {
  inputHash: string;
  /** From the task's opening to the decision. */
  afterMs: number;
  /** From the run's creation to the decision. */
  atMs: number;
  decision: 'approved' | 'rejected';
  by: string;
  data?: unknown;
  choice?: string;
  reason?: string;
}

/** An event the source run was delivered, and when, counted from the run's creation. */
export interface RecordedEvent {
  atMs: number;
  name: string;
  key: string;
  id: string;
  data: unknown;
}

export interface Recordings {
  attempts: Map<string, RecordedAttempt[]>;
  decisions: Map<string, RecordedDecision[]>;
  events: RecordedEvent[];
}

/** Failures the engine gives work that answered but broke the step's contract. */
const CONTRACT_CODES: ReadonlySet<string> = new Set(['invalid_output', 'acceptance_not_met']);

/** The recordings of a run, from its log in seq order. */
export function recordingsOf(events: readonly RunEvent[]): Recordings {
  const createdAt = events[0]?.at ?? 0;
  const started = new Map<string, { inputHash: string; input: unknown; at: number }>();
  const opened = new Map<string, { inputHash: string; at: number }>();
  const attempts = new Map<string, RecordedAttempt[]>();
  const decisions = new Map<string, RecordedDecision[]>();
  const out: RecordedEvent[] = [];
  const key = (e: RunEvent): string => `${e.step ?? ''}\u0000${e.activation ?? 0}\u0000${e.attempt ?? 0}`;
  const add = <T>(m: Map<string, T[]>, step: string, value: T): void => {
    const list = m.get(step);
    if (list === undefined) m.set(step, [value]);
    else list.push(value);
  };
  const ended = (e: RunEvent, result: AttemptResult): void => {
    const s = started.get(key(e));
    if (s === undefined || e.step === null) return;
    started.delete(key(e));
    add(attempts, e.step, { inputHash: s.inputHash, input: s.input, result, durationMs: Math.max(0, e.at - s.at) });
  };
  for (const e of events) {
    switch (e.type) {
      case 'attempt_started':
        // A pinned attempt (debug run) called nothing: no recording.
        if (e.data.pinned !== true && e.step !== null) started.set(key(e), { inputHash: e.data.inputHash, input: e.data.input, at: e.at });
        break;
      case 'task_opened': {
        const s = started.get(key(e));
        if (s !== undefined && e.step !== null) opened.set(e.step, { inputHash: s.inputHash, at: e.at });
        break;
      }
      case 'task_decided': {
        const o = e.step === null ? undefined : opened.get(e.step);
        if (o !== undefined && e.step !== null) {
          const d = e.data;
          add(decisions, e.step, {
            inputHash: o.inputHash,
            afterMs: Math.max(0, e.at - o.at),
            atMs: Math.max(0, e.at - createdAt),
            decision: d.decision,
            by: d.by,
            ...(d.data === undefined ? {} : { data: d.data }),
            ...(d.choice === undefined ? {} : { choice: d.choice }),
            ...(d.reason === undefined ? {} : { reason: d.reason }),
          });
          opened.delete(e.step);
        }
        break;
      }
      case 'attempt_succeeded':
        if (e.data.pinned !== true) ended(e, { outcome: 'succeeded', output: e.data.output, ...(e.data.meta === undefined ? {} : { meta: e.data.meta }) });
        break;
      case 'attempt_failed':
        if (e.data.pinned === true) break;
        // Work that answered but failed the step's contract: the answer is what was recorded
        // (the new definition's contract judges it again).
        if (e.data.output !== undefined && CONTRACT_CODES.has(e.data.error.code)) ended(e, { outcome: 'succeeded', output: e.data.output });
        else {
          ended(e, {
            outcome: 'failed',
            code: e.data.error.code,
            message: e.data.error.message,
            retryable: e.data.retryable,
            ...(e.data.output === undefined ? {} : { output: e.data.output }),
            ...(e.data.meta === undefined ? {} : { meta: e.data.meta }),
          });
        }
        break;
      case 'attempt_unknown':
        ended(e, { outcome: 'unknown', reason: e.data.error.message, ...(e.data.meta === undefined ? {} : { meta: e.data.meta }) });
        break;
      case 'event_received':
        out.push({ atMs: Math.max(0, e.data.receivedAt - createdAt), name: e.data.name, key: e.data.key, id: e.data.id, data: e.data.data });
        break;
      default:
        break;
    }
  }
  // The read a check ran first (revalidate.fetch) answers the replay's read of that step's attempt.
  for (const r of recordedReads(events)) add(attempts, readName(r.step), { inputHash: r.inputHash, input: null, result: r.result, durationMs: r.fetched.durationMs });
  return { attempts, decisions, events: out };
}
