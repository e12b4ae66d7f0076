// Which fields every step's form shows beyond its kind's config, in what order and with which
// control (see renderer/kinds/field-spec.ts). A kind's config fields are in its entry of
// renderer/kinds/kind-views.ts.
import type { FieldSpec } from '../../kinds/field-spec.ts';
import { kindsWhere } from '../../../shared/definition/step-kinds.ts';

/** Kinds whose own work shapes the output, so a step of them may give a handoff record (docs/long-running.md). */
const HANDOFF_KINDS: ReadonlySet<unknown> = new Set(kindsWhere((k) => k.handoff));
const mayGiveHandoff = (e: Record<string, unknown>): boolean => HANDOFF_KINDS.has(e['kind']);

export const DATA_FIELDS: FieldSpec[] = [
  { path: 'input', label: 'Input', widget: 'jsonata-multiline', hint: 'JSONata over {input, steps, run}; absent passes the run input' },
  { path: 'output', label: 'Output schema', widget: 'json-schema' },
  { path: 'accept', label: 'Accept when', widget: 'jsonata' },
  { path: 'handoff', label: 'Gives a handoff', hint: 'its output carries a handoff record under "handoff": completed, next, constraints, refs', show: mayGiveHandoff },
  { path: 'handoffFrom', label: 'Handoff from', widget: 'step-select', hint: 'the upstream step whose handoff record becomes the "handoff" key of this step\'s input' },
];

export const RELIABILITY_FIELDS: FieldSpec[] = [
  { path: 'retry.maxAttempts', label: 'Max attempts', placeholder: '1' },
  { path: 'retry.initialIntervalMs', label: 'First retry after', widget: 'duration' },
  { path: 'retry.backoffCoefficient', label: 'Backoff factor' },
  { path: 'retry.maxIntervalMs', label: 'Longest interval', widget: 'duration' },
  { path: 'retry.jitter', label: 'Jitter' },
  { path: 'retry.nonRetryable', label: 'Never retry codes', widget: 'chips' },
  { path: 'retry.variants', label: 'Attempt variants', widget: 'json' },
  { path: 'timeoutMs', label: 'Timeout', widget: 'duration' },
  { path: 'deadlineMs', label: 'Deadline', widget: 'duration' },
  { path: 'onExhausted', label: 'When retries run out', unset: 'fail (default)' },
];

const isEffectful = (e: Record<string, unknown>): boolean => e['effect'] === 'idempotent' || e['effect'] === 'external';

export const EFFECT_FIELDS: FieldSpec[] = [
  { path: 'effect', label: 'Effect', unset: 'none (default)' },
  { path: 'idempotencyKey', label: 'Idempotency key', widget: 'jsonata', show: isEffectful },
  { path: 'onRevise', label: 'On revision', unset: 'default: ask if external, else rerun' },
];

/** A waiting step's check on resume (docs/long-running.md, "Revalidation on resume"); `fetch` has no control: the JSON view edits it. */
export const REVALIDATE_FIELDS: FieldSpec[] = [
  { path: 'revalidate.check', label: 'Check', widget: 'jsonata-multiline', hint: 'JSONata: true means still fresh; reads input, steps, run, output and $now(), $millis(), $waitedMs, $trigger' },
  { path: 'revalidate.afterMs', label: 'After a wait of', widget: 'duration', hint: 'a shorter wait skips the check; a restart or a migration always runs it', placeholder: '0 (every wait)' },
  { path: 'revalidate.description', label: 'What it guards', widget: 'multiline', placeholder: 'e.g. the quoted total still holds' },
];

export const ADVANCED_FIELDS: FieldSpec[] = [
  { path: 'compensation', label: 'Compensation', widget: 'step-select' },
  { path: 'resource', label: 'Resource pool', widget: 'resource' },
  { path: 'optional', label: 'Optional branch' },
];
