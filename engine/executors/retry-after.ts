// How long a server asks us to wait before trying again: `retry-after-ms` (OpenAI, precise), else
// `Retry-After` in seconds or as an HTTP date (RFC 9110, 10.2.3). Executors only record it
// (meta.retryAfterMs); whether and when to retry is the engine's call.

const NUMBER = /^\s*\d+(\.\d+)?\s*$/;

/**
 * The requested wait in ms from `now`, or undefined when no header gives a usable value.
 *
 * @example
 * retryAfterMs((name) => ({ 'retry-after': '2' })[name], Date.now()) // 2000
 */
export function retryAfterMs(header: (name: string) => string | null | undefined, now: number): number | undefined {
  const ms = header('retry-after-ms');
  if (typeof ms === 'string' && NUMBER.test(ms)) return Math.ceil(Number(ms));
  const value = header('retry-after');
  if (typeof value !== 'string') return undefined;
  if (NUMBER.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value.trim());
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
