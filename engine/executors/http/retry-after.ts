// A `Retry-After` header is either a number of seconds or an HTTP date (RFC 9110, 10.2.3). The
// executor only records it (meta.retryAfterMs); whether and when to retry is the engine's call.

/** The wait the server asks for, in ms from `now`, or undefined when the header says nothing usable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
