// Where a run's time went, as spans, from its event log alone: the one walk that both the run's
// metrics (engine/metrics/run-metrics.ts) and its timeline (timeline.ts) are built on, so the
// timeline's spans and the metrics' figures can never disagree.
//
// Every instant between the run's creation and its end (or `asOf`) is counted once, in the first
// of these that applies: active (an attempt of a step that does work is open), waiting (a person,
// an event or a timer is awaited, or a retry backs off), queued (the run waits for a run slot, or
// an activated step has not started its attempt yet), attention (none of these: the run is paused
// or needs a person to act). So active + waiting + queued + attention = duration.
import type { RunState } from '../definition/names.ts';
import type { SpanKind } from '../api/timeline.ts';
import type { RunEvent } from '../events/run-event.ts';

export const TIME_KINDS = ['active', 'waiting', 'queued'] as const;
export type TimeKind = (typeof TIME_KINDS)[number];

/**
 * How each span kind counts. A parent's attempt waiting on its child runs counts as active (the
 * work goes on, in the children), as the metrics have always counted it. Paused and
 * needs-attention spans count as nothing: attention is the time no other span covers.
 */
export const TIME_KIND_OF: Readonly<Record<SpanKind, TimeKind | null>> = {
  running: 'active',
  waiting_child: 'active',
  waiting_person: 'waiting',
  waiting_event: 'waiting',
  waiting_timer: 'waiting',
  retry_wait: 'waiting',
  queued: 'queued',
  needs_attention: null,
  paused: null,
};

/** One span; `end` is null while it is open. Step, activation and attempt are null for the run's own. */
export interface Span {
  kind: SpanKind;
  step: string | null;
  activation: number | null;
  attempt: number | null;
  start: number;
  end: number | null;
  why: string | null;
}

/** The spans' walk state; `apply` each event of one run in seq order, then read the fields. */
export class TimeSpans {
  readonly spans: Span[] = [];
  /** The run's state after the events so far, and when it entered it. */
  state: RunState = 'running';
  stateAt = 0;
  startedAt = 0;
  lastAt = 0;
  private readonly openAttempts = new Map<string, Span>();
  private readonly activationQueues = new Map<string, Span>();
  private readonly backoffs = new Map<string, Span>();
  private runQueue: Span | null = null;
  private runHold: Span | null = null;

  apply(e: RunEvent): void {
    this.lastAt = e.at;
    switch (e.type) {
      case 'run_created':
        this.startedAt = e.at;
        this.stateAt = e.at;
        return;
      case 'run_state_changed': {
        this.state = e.data.state;
        this.stateAt = e.at;
        close(this.runHold, e.at);
        this.runHold = null;
        if (e.data.state === 'paused' || e.data.state === 'needs_attention') this.runHold = this.open(e.data.state, e, null, null, null);
        return;
      }
      case 'run_queued':
        this.runQueue = this.open('queued', e, null, null, null);
        return;
      case 'run_dequeued':
        close(this.runQueue, e.at);
        return;
      case 'step_activated':
        this.activationQueues.set(activationKey(e), this.open('queued', e, e.step, e.activation, null));
        return;
      case 'attempt_started': {
        const key = activationKey(e);
        close(this.activationQueues.get(key), e.at);
        this.activationQueues.delete(key);
        close(this.backoffs.get(key), e.at);
        this.openAttempts.set(attemptKey(e), this.open('running', e, e.step, e.activation, e.attempt));
        return;
      }
      case 'task_opened':
        this.attemptWaits(e, 'waiting_person');
        return;
      case 'event_awaited':
        this.attemptWaits(e, 'waiting_event');
        return;
      case 'timer_set':
        this.attemptWaits(e, 'waiting_timer');
        return;
      case 'child_started':
        this.attemptWaits(e, 'waiting_child');
        return;
      case 'attempt_succeeded':
      case 'attempt_failed':
      case 'attempt_unknown':
        close(this.openAttempts.get(attemptKey(e)), e.at);
        this.openAttempts.delete(attemptKey(e));
        return;
      case 'retry_scheduled':
        this.backoffs.set(activationKey(e), this.open('retry_wait', e, e.step, e.activation, e.data.nextAttempt));
        return;
      case 'step_settled': {
        const key = activationKey(e);
        close(this.activationQueues.get(key), e.at);
        this.activationQueues.delete(key);
        return;
      }
      default:
        return;
    }
  }

  /** The run's end: when it finished, else `asOf` (never before its last event). */
  end(finished: boolean, asOf: number | undefined): number {
    return finished ? this.stateAt : Math.max(asOf ?? this.lastAt, this.lastAt);
  }

  private open(kind: SpanKind, e: RunEvent, step: string | null, activation: number | null, attempt: number | null): Span {
    const span: Span = { kind, step, activation, attempt, start: e.at, end: null, why: e.reason };
    this.spans.push(span);
    return span;
  }

  /** The open attempt waits on something: its span is of that kind from its start. */
  private attemptWaits(e: RunEvent, kind: SpanKind): void {
    const span = this.openAttempts.get(attemptKey(e));
    if (span !== undefined && span.kind === 'running') span.kind = kind;
  }
}

const close = (span: Span | null | undefined, at: number): void => {
  if (span && span.end === null) span.end = at;
};

const attemptKey = (e: RunEvent): string => `${e.step ?? ''}/${e.activation ?? 0}.${e.attempt ?? 0}`;
const activationKey = (e: RunEvent): string => `${e.step ?? ''}/${e.activation ?? 0}`;

/** The milliseconds of `span` inside [.., to], with an open span running to `to`. */
export function spanMs(span: Span, to: number): number {
  const until = Math.min(span.end ?? to, to);
  return Math.max(0, until - Math.min(span.start, until));
}

/** Splits [from, to] by the highest-ranked time kind of the spans open at each instant (a sweep). */
export function splitTime(spans: readonly Span[], from: number, to: number): Record<TimeKind, number> {
  const rank: Record<TimeKind, number> = { active: 0, waiting: 1, queued: 2 };
  const marks: [number, number, number][] = [];
  for (const span of spans) {
    const kind = TIME_KIND_OF[span.kind];
    if (kind === null) continue;
    const a = Math.max(span.start, from);
    const b = Math.min(span.end ?? to, to);
    if (b <= a) continue;
    marks.push([a, rank[kind], 1], [b, rank[kind], -1]);
  }
  marks.sort((x, y) => x[0] - y[0]);
  const open = [0, 0, 0];
  const out: Record<TimeKind, number> = { active: 0, waiting: 0, queued: 0 };
  let prev = from;
  for (const [at, r, d] of marks) {
    if (at > prev) {
      const top = open.findIndex((n) => n > 0);
      const kind = TIME_KINDS[top];
      if (kind !== undefined) out[kind] += at - prev;
      prev = at;
    }
    open[r] = (open[r] ?? 0) + d;
  }
  return out;
}
