// How the timeline names span kinds, attempt outcomes and markers, in the tooltip, the legend and
// the accessible labels.
import type { SpanKind } from '../../../shared/api/timeline.ts';
import type { AttemptOutcome, MarkerKind, TimelineBar } from './timeline-model.ts';

export const KIND_LABEL: Readonly<Record<SpanKind, string>> = {
  running: 'running',
  retry_wait: 'retry wait',
  waiting_person: 'waiting for a person',
  waiting_event: 'waiting for an event',
  waiting_timer: 'waiting for a timer',
  waiting_child: 'waiting for child runs',
  queued: 'queued',
  needs_attention: 'needs attention',
  paused: 'paused',
};

export const OUTCOME_LABEL: Readonly<Record<AttemptOutcome, string>> = {
  succeeded: 'succeeded',
  failed: 'failed',
  unknown: 'unknown',
  partial: 'partly done',
  open: 'still going',
};

export const MARKER_LABEL: Readonly<Record<MarkerKind, string>> = {
  event: 'event received',
  operator: 'operator action',
  revision: 'input revised',
  restart: 'engine restarted',
  escalation: 'escalated',
  reopened: 'path re-decided',
  passed_over: 'passed over',
  migrated: 'version changed (migrated)',
  revalidated: 're-checked on resume',
  note: 'note',
};

/** What a span is doing, said of an attempt: now (open) and after (ended). */
const DOING: Readonly<Record<SpanKind, { now: string; past: string }>> = {
  running: { now: 'is running', past: 'ran' },
  retry_wait: { now: 'waits for its retry', past: 'waited for its retry' },
  waiting_person: { now: 'is waiting for a person', past: 'waited for a person' },
  waiting_event: { now: 'is waiting for an event', past: 'waited for an event' },
  waiting_timer: { now: 'is waiting for a timer', past: 'waited for a timer' },
  waiting_child: { now: 'is waiting for child runs', past: 'waited for child runs' },
  queued: { now: 'is queued', past: 'was queued' },
  needs_attention: { now: 'needs attention', past: 'needed attention' },
  paused: { now: 'is paused', past: 'was paused' },
};

/**
 * The hover card's headline for a bar, as a sentence: "attempt 1 ran and succeeded", "attempt 2
 * is waiting for a person", "attempt 3 waits for its retry"; a span of no attempt says its kind
 * ("paused", "needs attention").
 */
export function barHeadline(bar: Pick<TimelineBar, 'kind' | 'attempt' | 'outcome' | 'endMs'>): string {
  if (bar.attempt === null) return KIND_LABEL[bar.kind];
  const doing = DOING[bar.kind];
  const subject = `attempt ${bar.attempt}`;
  if (bar.endMs === null || bar.outcome === 'open') return `${subject} ${doing.now}`;
  if (bar.outcome === 'succeeded' || bar.outcome === 'failed') return `${subject} ${doing.past} and ${bar.outcome}`;
  if (bar.outcome === 'unknown') return `${subject} ${doing.past}; its outcome is unknown`;
  if (bar.outcome === 'partial') return `${subject} ${doing.past} and finished part of the work`;
  return `${subject} ${doing.past}`;
}
