// The run timeline as the view draws it, from the shared `Timeline` read model (GET
// /api/runs/:id/timeline) and the run's events: one row per step activation (plus one for the
// run's own spans), a bar per span, each attempt's outcome, and markers for what happened to the
// run from outside (events received, operators, revisions, engine restarts, escalations, notes) and for
// re-decisions of its path (an operator's action re-deciding what followed a step, a step passed
// over once no edge leads to it any more). Pure:
// the component only maps it to pixels, so everything here is tested without a browser.
import type { SpanKind, Timeline } from '../../../shared/api/timeline.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';
import { attemptCost, sumCost } from '../../../shared/cost/attempt-cost.ts';

/** What became of an attempt; `open` while it has not ended. */
/** `partial`: the executor finished part of the work (attempt_partial). */
export type AttemptOutcome = 'succeeded' | 'failed' | 'unknown' | 'partial' | 'open';

export interface TimelineBar {
  kind: SpanKind;
  startMs: number;
  /** Null while open: the view draws it to `nowMs`. */
  endMs: number | null;
  attempt: number | null;
  /** For attempt bars (running and waiting_*), what the attempt came to; null for other spans. */
  outcome: AttemptOutcome | null;
  why: string | null;
  /** For attempt bars, what the attempt cost once it ended (docs/cost.md); null when it billed nothing (yet). */
  cost: Money | null;
}

/** An amount in a currency, as an attempt's cost records it. */
export interface Money {
  amount: number;
  currency: string;
}

export interface TimelineRow {
  /** `run` for the run's own row, else `step/activation`. */
  key: string;
  /** Null on the run's row. */
  stepId: string | null;
  activation: number | null;
  firstMs: number;
  /** In start order. */
  bars: TimelineBar[];
  /** What the activation's attempts cost in all; null when none billed anything. */
  cost: Money | null;
}

export const MARKER_KINDS = ['event', 'operator', 'revision', 'restart', 'escalation', 'reopened', 'passed_over', 'migrated', 'revalidated', 'note'] as const;
export type MarkerKind = (typeof MARKER_KINDS)[number];

export interface TimelineMarker {
  kind: MarkerKind;
  atMs: number;
  seq: number;
  /** The row it is drawn on (`run` when the event belongs to no step activation shown). */
  rowKey: string;
  label: string;
}

export interface TimelineModel {
  runId: string;
  startMs: number;
  endedMs: number | null;
  asOfMs: number;
  rows: TimelineRow[];
  markers: TimelineMarker[];
  /** Row index by row key. */
  rowIndex: ReadonlyMap<string, number>;
  /** Markers by row key, in time order. */
  markersByRow: ReadonlyMap<string, TimelineMarker[]>;
}

export const RUN_ROW = 'run';
const ATTEMPT_KINDS: ReadonlySet<SpanKind> = new Set(['running', 'waiting_person', 'waiting_event', 'waiting_timer', 'waiting_child']);

export const rowKeyOf = (stepId: string | null, activation: number | null): string => (stepId === null ? RUN_ROW : `${stepId}/${activation ?? 0}`);
const attemptKeyOf = (stepId: string, activation: number | null, attempt: number | null): string => `${stepId}/${activation ?? 0}.${attempt ?? 0}`;

/**
 * The model of a run's timeline. `events` may be a prefix of the log (still paging) or empty:
 * attempt outcomes are then `open`/unknown to the view and markers missing, never wrong. Linear
 * in spans + events, apart from sorting rows.
 *
 * @example
 * const model = buildTimelineModel(await client.timeline(runId), events.map((e) => e.event));
 */
export function buildTimelineModel(timeline: Timeline, events: readonly RunEvent[]): TimelineModel {
  const { outcomes, costs } = attemptEnds(events);
  const byKey = new Map<string, TimelineRow>();
  for (const span of timeline.spans) {
    const key = rowKeyOf(span.step, span.activation);
    let row = byKey.get(key);
    if (row === undefined) {
      row = { key, stepId: span.step, activation: span.step === null ? null : span.activation, firstMs: span.startMs, bars: [], cost: null };
      byKey.set(key, row);
    }
    const isAttempt = span.step !== null && ATTEMPT_KINDS.has(span.kind);
    const attemptKey = attemptKeyOf(span.step ?? '', span.activation, span.attempt);
    const outcome = isAttempt ? (outcomes.get(attemptKey) ?? (span.endMs === null ? 'open' : null)) : null;
    row.bars.push({ kind: span.kind, startMs: span.startMs, endMs: span.endMs, attempt: span.attempt, outcome, why: span.why, cost: isAttempt ? (costs.get(attemptKey) ?? null) : null });
    if (span.startMs < row.firstMs) row.firstMs = span.startMs;
  }
  // Spans arrive in the order they opened, so bars are in start order already; only the rare
  // out-of-order row is sorted.
  for (const row of byKey.values()) if (!sortedByStart(row.bars)) row.bars.sort((a, b) => a.startMs - b.startMs);
  const stepRows = [...byKey.values()].filter((r) => r.stepId !== null);
  // Stable: rows that start in the same millisecond (a fast engine starts many) keep log order.
  stepRows.sort((a, b) => a.firstMs - b.firstMs);
  for (const row of stepRows) row.cost = rowCost(row, costs);
  const runRow = byKey.get(RUN_ROW) ?? { key: RUN_ROW, stepId: null, activation: null, firstMs: timeline.startedAtMs, bars: [], cost: null };
  const rows = [runRow, ...stepRows];
  const rowIndex = new Map(rows.map((r, i) => [r.key, i]));
  const markers = markersOf(events, rowIndex);
  const markersByRow = new Map<string, TimelineMarker[]>();
  for (const m of markers) {
    const list = markersByRow.get(m.rowKey);
    if (list === undefined) markersByRow.set(m.rowKey, [m]);
    else list.push(m);
  }
  return { runId: timeline.runId, startMs: timeline.startedAtMs, endedMs: timeline.endedAtMs, asOfMs: timeline.asOfMs, rows, markers, rowIndex, markersByRow };
}

function sortedByStart(bars: readonly TimelineBar[]): boolean {
  for (let i = 1; i < bars.length; i++) if ((bars[i]?.startMs ?? 0) < (bars[i - 1]?.startMs ?? 0)) return false;
  return true;
}

/** How each attempt ended, and what it cost, by attempt key. */
function attemptEnds(events: readonly RunEvent[]): { outcomes: Map<string, AttemptOutcome>; costs: Map<string, Money> } {
  const outcomes = new Map<string, AttemptOutcome>();
  const costs = new Map<string, Money>();
  for (const e of events) {
    if (e.step === null) continue;
    const key = attemptKeyOf(e.step, e.activation, e.attempt);
    if (e.type === 'attempt_succeeded') outcomes.set(key, 'succeeded');
    else if (e.type === 'attempt_failed') outcomes.set(key, 'failed');
    else if (e.type === 'attempt_unknown') outcomes.set(key, 'unknown');
    else if (e.type === 'attempt_partial') outcomes.set(key, 'partial');
    else continue;
    const cost = e.data.meta?.cost;
    if (cost !== undefined) costs.set(key, { amount: attemptCost({ meta: e.data.meta }), currency: cost.currency });
  }
  return { outcomes, costs };
}

/** An activation's cost: each of its attempts once (an attempt may be drawn as several bars). */
function rowCost(row: TimelineRow, costs: ReadonlyMap<string, Money>): Money | null {
  const seen = new Map<number, Money>();
  for (const b of row.bars) {
    const c = b.attempt === null ? undefined : costs.get(attemptKeyOf(row.stepId ?? '', row.activation, b.attempt));
    if (c !== undefined && b.attempt !== null) seen.set(b.attempt, c);
  }
  const first = seen.values().next().value;
  return first === undefined ? null : { amount: sumCost([...seen.values()].map((c) => c.amount)), currency: first.currency };
}

/**
 * The events drawn as markers, in log order, each on its activation's row when it has one. An
 * event about a step without an activation of its own (an operator's retry) goes on the step's
 * latest activation so far: the one it acted on. A re-decision of the path goes on the run's row.
 */
function markersOf(events: readonly RunEvent[], rowIndex: ReadonlyMap<string, number>): TimelineMarker[] {
  const out: TimelineMarker[] = [];
  const latest = new Map<string, number>();
  for (const e of events) {
    if (e.step !== null && e.activation !== null && e.activation > (latest.get(e.step) ?? 0)) latest.set(e.step, e.activation);
    const m = markerOf(e);
    if (m === null) continue;
    // A re-decision concerns the run's path, and the operator's own marker is on the acted step at the same instant.
    const own = e.step === null || m.kind === 'reopened' ? RUN_ROW : rowKeyOf(e.step, e.activation ?? latest.get(e.step) ?? null);
    out.push({ kind: m.kind, label: m.label, atMs: e.at, seq: e.seq, rowKey: rowIndex.has(own) ? own : RUN_ROW });
  }
  return out;
}

function markerOf(e: RunEvent): { kind: MarkerKind; label: string } | null {
  const why = e.reason === null ? '' : `: ${e.reason}`;
  switch (e.type) {
    case 'event_received':
      return { kind: 'event', label: `event ${e.data.name} (${e.data.key}) received` };
    case 'operator_action':
      return { kind: 'operator', label: `${e.data.by}: ${e.data.action}${e.step === null ? '' : ` ${e.step}`}${why}` };
    case 'task_decided':
      return { kind: 'operator', label: `${e.data.by}: ${e.data.decision}${e.data.reason === undefined ? '' : `: ${e.data.reason}`}` };
    case 'task_reassigned':
      return { kind: 'operator', label: `${e.data.by}: reassigned to ${e.data.to}` };
    case 'run_input_revised':
      return { kind: 'revision', label: `input revised (revision ${e.data.inputRevision})${why}` };
    case 'engine_resumed':
      return { kind: 'restart', label: `engine restarted (${e.data.interrupted} interrupted)` };
    case 'step_escalated':
      return { kind: 'escalation', label: `${e.step ?? 'step'} escalated (${e.data.outcome.replace('_', ' ')})${why}` };
    case 'policy_escalated':
      return { kind: 'escalation', label: `${e.step ?? 'step'} escalated to ${e.data.to} by policy "${e.data.rule}"${why}` };
    case 'path_reopened':
      // The engine's reason names the superseded steps; without it, the steps decided again.
      return { kind: 'reopened', label: e.reason ?? `${e.data.cause}: decided again: ${e.data.steps.map((s) => s.stepId).join(', ') || 'the edges after it'}` };
    case 'run_migrated':
      return { kind: 'migrated', label: `migrated from v${e.data.fromVersion} to v${e.data.toVersion} by ${e.data.by}${e.reason === null ? '' : ` (${e.reason})`}` };
    case 'step_revalidated':
      return { kind: 'revalidated', label: `${e.step ?? 'step'} re-checked on resume (${e.data.trigger}): ${e.data.verdict}${why}` };
    case 'step_passed_over':
      return { kind: 'passed_over', label: `${e.step ?? 'step'} passed over${why}` };
    case 'note_added':
      return { kind: 'note', label: `note by ${e.data.by}: ${e.data.text}` };
    default:
      return null;
  }
}

/** The visible time window. */
export interface TimeWindow {
  startMs: number;
  endMs: number;
}

/** Where a bar ends on screen: its end, else `nowMs` for an open one (never before its start). */
export const barEnd = (bar: TimelineBar, nowMs: number): number => Math.max(bar.startMs, bar.endMs ?? nowMs);

/** The model's whole extent: from the run's start to its end, else to `nowMs`; past the end to a later marker (a note on a settled run). */
export function extentOf(model: TimelineModel, nowMs: number): TimeWindow {
  const end = Math.max(model.endedMs ?? Math.max(model.asOfMs, nowMs), model.markers.at(-1)?.atMs ?? 0);
  return { startMs: model.startMs, endMs: Math.max(end, model.startMs + 1) };
}

/** The whole run with a small margin each side. */
export function fitWindow(model: TimelineModel, nowMs: number): TimeWindow {
  const { startMs, endMs } = extentOf(model, nowMs);
  const pad = (endMs - startMs) * 0.02;
  return { startMs: startMs - pad, endMs: endMs + pad };
}

export const xOf = (ms: number, w: TimeWindow, widthPx: number): number => ((ms - w.startMs) / (w.endMs - w.startMs)) * widthPx;
export const msOf = (x: number, w: TimeWindow, widthPx: number): number => w.startMs + (x / widthPx) * (w.endMs - w.startMs);

/** The shortest window a zoom reaches: a millisecond across the track. */
export const MIN_SPAN_MS = 1;

/** Zooms by `factor` (< 1 in, > 1 out) around `anchorMs`, which stays where it is on screen. */
export function zoomWindow(w: TimeWindow, factor: number, anchorMs: number, bounds: TimeWindow): TimeWindow {
  const span = w.endMs - w.startMs;
  const maxSpan = Math.max((bounds.endMs - bounds.startMs) * 4, MIN_SPAN_MS);
  const next = Math.min(Math.max(span * factor, MIN_SPAN_MS), maxSpan);
  const at = (anchorMs - w.startMs) / span;
  const startMs = anchorMs - at * next;
  return clampWindow({ startMs, endMs: startMs + next }, bounds);
}

/** Pans by `deltaMs` (positive: later), kept so that some of the run stays in view. */
export function panWindow(w: TimeWindow, deltaMs: number, bounds: TimeWindow): TimeWindow {
  return clampWindow({ startMs: w.startMs + deltaMs, endMs: w.endMs + deltaMs }, bounds);
}

function clampWindow(w: TimeWindow, bounds: TimeWindow): TimeWindow {
  const span = w.endMs - w.startMs;
  const margin = span * 0.5;
  const lo = bounds.startMs - margin;
  const hi = bounds.endMs + margin;
  if (w.startMs < lo) return { startMs: lo, endMs: lo + span };
  if (w.endMs > hi) return { startMs: hi - span, endMs: hi };
  return w;
}

/** The bars of a row that intersect the window, in start order: what is drawn of it. */
export function barsInWindow(row: TimelineRow, w: TimeWindow, nowMs: number): TimelineBar[] {
  const out: TimelineBar[] = [];
  for (const bar of row.bars) {
    if (bar.startMs > w.endMs) break;
    if (barEnd(bar, nowMs) >= w.startMs) out.push(bar);
  }
  return out;
}

/**
 * The bar of `row` under time `ms`, within `slopMs` (a few pixels, so a sliver can be hit): the
 * bar containing it, else the nearest; attempt bars win over the spans around them.
 */
export function barAt(row: TimelineRow, ms: number, slopMs: number, nowMs: number): TimelineBar | null {
  let best: TimelineBar | null = null;
  let bestDistance = Infinity;
  for (const bar of row.bars) {
    if (bar.startMs > ms + slopMs) break;
    const end = barEnd(bar, nowMs);
    const distance = ms < bar.startMs ? bar.startMs - ms : ms > end ? ms - end : 0;
    if (distance > slopMs) continue;
    const better = distance < bestDistance || (distance === bestDistance && bar.outcome !== null && best?.outcome === null);
    if (better) {
      best = bar;
      bestDistance = distance;
    }
  }
  return best;
}

/** The marker of `rowKey` nearest `ms` within `slopMs`, if any. */
export function markerAt(model: TimelineModel, rowKey: string, ms: number, slopMs: number): TimelineMarker | null {
  let best: TimelineMarker | null = null;
  for (const m of model.markersByRow.get(rowKey) ?? []) {
    const d = Math.abs(m.atMs - ms);
    if (d <= slopMs && (best === null || d < Math.abs(best.atMs - ms))) best = m;
  }
  return best;
}

export interface Tick {
  ms: number;
  label: string;
}

const TICK_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 10e3, 15e3, 30e3, 60e3, 120e3, 300e3, 600e3, 900e3, 1800e3, 3600e3, 7200e3, 10800e3, 21600e3, 43200e3, 86400e3, 172800e3, 604800e3];

/**
 * Axis ticks for the window, about `minGapPx` apart or more, labelled as time since the run's
 * start (`+1.5s`, `+2m 30s`): what a person compares along a run.
 */
export function ticksFor(w: TimeWindow, widthPx: number, originMs: number, minGapPx = 80): Tick[] {
  const span = w.endMs - w.startMs;
  const wanted = (span / Math.max(widthPx, 1)) * minGapPx;
  const step = TICK_STEPS.find((s) => s >= wanted) ?? Math.ceil(wanted / 604800e3) * 604800e3;
  const first = Math.ceil((w.startMs - originMs) / step) * step + originMs;
  const out: Tick[] = [];
  for (let ms = first; ms <= w.endMs && out.length < 200; ms += step) out.push({ ms, label: offsetLabel(ms - originMs, step) });
  return out;
}

function offsetLabel(offset: number, step: number): string {
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  if (step < 1000) return `${sign}${a >= 1000 ? `${(a / 1000).toFixed(step < 10 ? 3 : step < 100 ? 2 : 1)}s` : `${Math.round(a)}ms`}`;
  if (a < 60_000) return `${sign}${Math.round(a / 1000)}s`;
  const m = Math.floor(a / 60_000);
  const s = Math.round((a % 60_000) / 1000);
  if (m < 60) return `${sign}${m}m${s === 0 ? '' : ` ${s}s`}`;
  const h = Math.floor(m / 60);
  return `${sign}${h}h${m % 60 === 0 ? '' : ` ${m % 60}m`}`;
}
