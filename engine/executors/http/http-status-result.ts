// A complete reply becomes the attempt's result by its status: one in `expectStatus` (default any
// 2xx) succeeds with {status, headers, body}; any other fails with `http_<status>`, keeping the
// reply as evidence. Only statuses that say "try again" are retryable: 408, 425, 429 and 5xx.
// An unexpected 2xx or 3xx is not: the server did what it does, and would do it again.
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { AttemptResult } from '../executor.ts';
import type { AttemptMeta } from '../../../shared/events/attempt-meta.ts';
import type { HttpRequestPlan } from './http-request-plan.ts';
import { retryAfterMs } from '../retry-after.ts';

export interface HttpOutput {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: unknown;
}

const SNIPPET_CHARS = 500;

export interface StatusResultInput {
  plan: HttpRequestPlan;
  output: HttpOutput;
  /** The body as text, for the failure message (or why there is none). */
  bodyText: string;
  expectStatus: readonly number[] | undefined;
  latencyMs: number;
  now: number;
}

export function statusResult(input: StatusResultInput): AttemptResult {
  const { plan, output, expectStatus } = input;
  const { status } = output;
  const meta: AttemptMeta = { status, latencyMs: input.latencyMs };
  if (isExpectedStatus(status, expectStatus)) return { outcome: 'succeeded', output, meta };

  if (status === 429 || status === 503) {
    const wait = retryAfterMs((name) => output.headers[name], input.now);
    if (wait !== undefined) meta.retryAfterMs = wait;
  }
  return {
    outcome: 'failed',
    code: `http_${status}`,
    message: `${answered(plan, status, expectStatus)}${redirectHint(status, output.headers['location'])}${snippet(input.bodyText)}`,
    retryable: isRetryableStatus(status),
    output,
    meta,
  };
}

/** In `expectStatus`, or any 2xx when the step gives none. */
export function isExpectedStatus(status: number, expectStatus: readonly number[] | undefined): boolean {
  return expectStatus === undefined ? status >= 200 && status <= 299 : expectStatus.includes(status);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

/** "PUT http://host/x answered 404 Not Found (expected 2xx)". */
function answered(plan: HttpRequestPlan, status: number, expectStatus: readonly number[] | undefined): string {
  const phrase = STATUS_CODES[status];
  const expected = expectStatus === undefined ? '2xx' : expectStatus.join(' or ');
  return `${plan.method} ${plan.shownUrl} answered ${status}${phrase === undefined ? '' : ` ${phrase}`} (expected ${expected})`;
}

/** Lower-cased names to strings, as the output carries them. */
export function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function redirectHint(status: number, location: string | undefined): string {
  if (status < 300 || status > 399 || location === undefined) return '';
  return `; redirects are not followed: the server points to ${location} (use that URL, or add ${status} to config.expectStatus and read output.headers.location)`;
}

function snippet(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return `: ${trimmed.length > SNIPPET_CHARS ? `${trimmed.slice(0, SNIPPET_CHARS)}…` : trimmed}`;
}
