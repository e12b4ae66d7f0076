// The Debug part of the start form as plain data: the steps with a breakpoint, and the pinned
// outputs as the text the user typed or copied from a past run. Turning it into the start
// command's `debug` checks each pin's text as JSON and says, per step, where it is wrong and how
// to fix it; the engine then checks the value against the step's output schema (its refusal names
// the step). Pure, so it is unit-tested without a page.
import { findJsonProblem, type JsonValue } from '../../../shared/api/json-value.ts';
import type { StartRunDebug } from '../../../shared/api/start-run-command.ts';

/** One pinned step's output as the form holds it. */
export interface PinDraft {
  /** The output as JSON text. */
  text: string;
  /** Where a copied output came from ("run R, attempt 1.1"), shown beside it; null when typed. */
  from: string | null;
}

export interface DebugDraft {
  /** Steps to pause before, in the order they were picked. */
  breakpoints: readonly string[];
  pins: Readonly<Record<string, PinDraft>>;
}

export const EMPTY_DEBUG: DebugDraft = { breakpoints: [], pins: {} };

/** The draft with `stepId`'s breakpoint set or cleared. */
export function toggleBreakpoint(draft: DebugDraft, stepId: string): DebugDraft {
  const on = draft.breakpoints.includes(stepId);
  return { ...draft, breakpoints: on ? draft.breakpoints.filter((s) => s !== stepId) : [...draft.breakpoints, stepId] };
}

/** The draft with `stepId` pinned to `pin`, or (null) not pinned. */
export function setPin(draft: DebugDraft, stepId: string, pin: PinDraft | null): DebugDraft {
  const pins = Object.fromEntries(Object.entries(draft.pins).filter(([id]) => id !== stepId));
  return { ...draft, pins: pin === null ? pins : { ...pins, [stepId]: pin } };
}

export type PinParse = { ok: true; value: JsonValue } | { ok: false; message: string };

/**
 * A pin's text as a JSON value, or what is wrong with it: where (line and column) and how to fix it.
 *
 * @example
 * parsePin('{"status": 200}'); // { ok: true, value: { status: 200 } }
 * parsePin('{status: 200}');   // { ok: false, message: 'not JSON: line 1, column 2: …' }
 */
export function parsePin(text: string): PinParse {
  if (text.trim() === '') return { ok: false, message: 'empty: type the output as JSON (for example {"status": 200}), or copy one from a past run' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return { ok: false, message: `not JSON: ${where(text, detail)}${plain(detail)}. Quote keys and strings with "double quotes", and leave no comma before } or ]` };
  }
  const problem = findJsonProblem(parsed);
  if (problem !== undefined) return { ok: false, message: `not a JSON value at ${problem.path.join('.') || 'the top'}: ${problem.message}` };
  return { ok: true, value: toJson(parsed) };
}

/** The start command's `debug`, or each pin's problem by step id; undefined when nothing is set. */
export function debugCommand(draft: DebugDraft): { debug: StartRunDebug | undefined; problems: Record<string, string> } {
  const pins: Record<string, JsonValue> = {};
  const problems: Record<string, string> = {};
  for (const [stepId, pin] of Object.entries(draft.pins)) {
    const parsed = parsePin(pin.text);
    if (parsed.ok) pins[stepId] = parsed.value;
    else problems[stepId] = parsed.message;
  }
  const empty = draft.breakpoints.length === 0 && Object.keys(draft.pins).length === 0;
  if (empty) return { debug: undefined, problems };
  return {
    debug: { ...(draft.breakpoints.length === 0 ? {} : { breakpoints: [...draft.breakpoints] }), ...(Object.keys(pins).length === 0 ? {} : { pins }) },
    problems,
  };
}

// "line L, column C: " from the parser's "at position N" (V8 says it in several ways), or nothing.
function where(text: string, detail: string): string {
  const line = /line (\d+) column (\d+)/.exec(detail);
  if (line !== null) return `line ${line[1]}, column ${line[2]}: `;
  const at = /position (\d+)/.exec(detail);
  if (at === null) return /end of (JSON|data) input/i.test(detail) ? 'it ends too early: ' : '';
  const offset = Number(at[1]);
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}: `;
}

// The parser's message without its own position and the quoted text around it.
function plain(detail: string): string {
  const head = detail.replace(/\s*\(line \d+ column \d+\)/, '').replace(/,?\s*"[^"]*"\s+is not valid JSON/, '').replace(/\s+in JSON at position \d+.*$/, '').trim();
  return head === '' ? 'the text is not valid JSON' : head.charAt(0).toLowerCase() + head.slice(1);
}

// JSON.parse gives JSON values only; this rebuilds one as the JsonValue type without a cast.
function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return null;
}
