// How the timeline names span kinds, attempt outcomes and markers, in the tooltip, the legend and
// the accessible labels.
import type { SpanKind } from '../../../shared/api/timeline.ts';
import type { AttemptOutcome, MarkerKind } from './timeline-model.ts';

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
};
