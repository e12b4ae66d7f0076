// How long a provider asks us to wait before trying again. OpenAI sends `retry-after-ms`
// (precise) next to `retry-after`; Anthropic and most gateways send `retry-after` in seconds;
// RFC 9110 also allows an HTTP date. The engine decides whether to wait that long; this only
// reads the headers.

/**
 * The requested wait in ms, or undefined when no header gives a usable value.
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' }), Date.now()) // 2000
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
