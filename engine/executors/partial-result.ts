// How a command, a script or an http reply says it finished only part of its work
// (docs/long-running.md#partial-completion): its JSON result is one envelope,
//   { "$partial": { "output": <the part done>, "remaining": <what is left, optional> } }
// and the attempt ends `partial` instead of succeeded. One reader for every executor, so the
// shape is the same whoever reports it; anything else is an ordinary output.
import type { AttemptResult } from './executor.ts';

/** The envelope's key. An output object with this key and no other is a partial report. */
export const PARTIAL_KEY = '$partial';

const HINT = `report partial completion as {"${PARTIAL_KEY}": {"output": <the part done>, "remaining": <what is left>}}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads `value` (what an executor got back) as a partial report, if it is one: the result for a
 * partial envelope, a failed `invalid_partial` for an envelope that does not read, and undefined
 * for any other value (an ordinary output). `who` names the source in messages.
 *
 * @example
 * partialFromValue({ $partial: { output: { done: 5 }, remaining: { from: 5 } } }, 'script')
 * // { outcome: 'partial', output: { done: 5 }, remaining: { from: 5 } }
 */
export function partialFromValue(value: unknown, who: string): AttemptResult | undefined {
  if (!isRecord(value) || !Object.hasOwn(value, PARTIAL_KEY)) return undefined;
  const extra = Object.keys(value).filter((k) => k !== PARTIAL_KEY);
  if (extra.length > 0) return invalid(`${who} reported ${PARTIAL_KEY} beside other keys (${extra.map((k) => JSON.stringify(k)).join(', ')}); ${HINT}, with nothing beside it`);
  const report = value[PARTIAL_KEY];
  if (!isRecord(report)) return invalid(`${who} reported ${PARTIAL_KEY} as ${report === null ? 'null' : Array.isArray(report) ? 'a list' : typeof report}, not an object; ${HINT}`);
  const unknownKeys = Object.keys(report).filter((k) => k !== 'output' && k !== 'remaining');
  if (unknownKeys.length > 0) return invalid(`${who} reported ${PARTIAL_KEY} with ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')}, which it does not take (only "output" and "remaining"); ${HINT}`);
  if (!Object.hasOwn(report, 'output')) return invalid(`${who} reported ${PARTIAL_KEY} without "output" (the part done; null when nothing is kept); ${HINT}`);
  return { outcome: 'partial', output: report['output'], ...(report['remaining'] === undefined ? {} : { remaining: report['remaining'] }) };
}

function invalid(message: string): AttemptResult {
  return { outcome: 'failed', code: 'invalid_partial', message, retryable: false };
}
